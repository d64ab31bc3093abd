import type { IncomingMessage, ServerResponse } from 'node:http';
import { isoClock } from '../iso-clock';
import { receiveNotification, type ReceiveDeps } from '../notifications/receive-notification';
import { ackFormFor, sendSuccess } from './acks';
import { decodeBody } from './decode-body';
import type { FailedRequest, FailureAnswerer } from './error-handler';
import { assertIdentityEncoding, readBody } from './read-body';
import { sourceCheck, type SourcePolicy } from './source-check';

export { MAX_BODY_BYTES } from './read-body';

export type NotificationHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The one POST path for every event: source check → raw bytes → decode → validate+store → ack.
 * A plain node handler, so the hot path pays for no framework convenience it does not use;
 * Express mounts the same function, and every failure goes to the same answerer.
 */
export function notificationHandler(policy: SourcePolicy, deps: ReceiveDeps, answerFailure: FailureAnswerer): NotificationHandler {
  const checkSource = sourceCheck(policy);
  const { metrics } = deps;
  const now = isoClock();
  return async (req, res) => {
    const started = process.hrtime.bigint();
    const request: FailedRequest = { headers: req.headers, socket: req.socket, receivedAt: now(), body: null };
    try {
      const source = (request.source = checkSource(req));
      const rawBody = (request.body = await readBody(req, res));
      assertIdentityEncoding(req);
      const contentType = req.headers['content-type'];
      const fields = decodeBody(rawBody, contentType);
      await receiveNotification(
        {
          fields,
          rawBody,
          contentType: contentType ?? '',
          receipt: { receivedAt: request.receivedAt!, sourceIp: source.ip, environment: source.environment },
        },
        deps,
      );
      sendSuccess(res, ackFormFor(contentType));
    } catch (error) {
      await answerFailure(error, request, res);
    }
    metrics.ackLatency.observe({ status: String(res.statusCode) }, Number(process.hrtime.bigint() - started) / 1e9);
  };
}
