import type { IncomingMessage, ServerResponse } from 'node:http';
import { isoClock } from '../iso-clock';
import { receiveNotification, type ReceiveDeps } from './receive-notification';
import { ackFormFor, sendSuccess } from './acks';
import { decodeBody } from '../notifications/decode-body';
import { carriesSimulatorMark, SIMULATOR_MARK_HEADER } from '../notifications/simulator-mark';
import { statedNotiType } from '../notifications/stated-noti-type';
import type { FailedRequest, FailureAnswerer } from './error-handler';
import { assertIdentityEncoding, readBody } from './read-body';
import { sourceCheck, type SourcePolicy } from './source-check';
import { endNotificationSpan, endRefusedNotificationSpan, startNotificationSpan } from './notification-span';


export type NotificationHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The one POST path for every event: source check → raw bytes → decode → validate+store → ack.
 * A plain node handler, so the hot path pays for no framework convenience it does not use;
 * Express mounts the same function, and every failure goes to the same answerer.
 */
export function notificationHandler(policy: SourcePolicy, deps: ReceiveDeps, answerFailure: FailureAnswerer, path = '/', simulatorKeys: readonly Buffer[] = []): NotificationHandler {
  const checkSource = sourceCheck(policy);
  const { metrics } = deps;
  const tracing = deps.tracing ?? null;
  const now = isoClock();
  return async (req, res) => {
    const started = process.hrtime.bigint();
    const request: FailedRequest = { headers: req.headers, socket: req.socket, receivedAt: now(), body: null };
    // With tracing off this stays null: no span, no context, no attribute is made.
    const traced = tracing ? startNotificationSpan(tracing, path) : null;
    let fields: Record<string, unknown> | null = null;
    try {
      const source = (request.source = checkSource(req));
      const rawBody = (request.body = await readBody(req, res));
      assertIdentityEncoding(req);
      const contentType = req.headers['content-type'];
      fields = decodeBody(rawBody, contentType);
      const result = await receiveNotification(
        {
          fields,
          rawBody,
          contentType: contentType ?? '',
          receipt: {
            receivedAt: request.receivedAt!, sourceIp: source.ip, environment: source.environment,
            // Checked on the bytes as they came, before anything read them: only the simulator holds a key.
            simulator: simulatorKeys.length > 0 && carriesSimulatorMark(simulatorKeys, rawBody, req.headers[SIMULATOR_MARK_HEADER]),
          },
          traceContext: traced?.storedContext ?? null,
        },
        deps,
      );
      sendSuccess(res, ackFormFor(contentType));
      if (traced) endNotificationSpan(traced.span, statedNotiType(fields), result);
    } catch (error) {
      await answerFailure(error, request, res);
      if (traced) endRefusedNotificationSpan(traced.span, fields === null ? undefined : statedNotiType(fields), res.statusCode);
    }
    metrics.ackLatency.observe({ status: String(res.statusCode) }, Number(process.hrtime.bigint() - started) / 1e9);
  };
}
