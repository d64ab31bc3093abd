import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Source } from './source-check';
import type { ErrorRequestHandler } from 'express';
import { ForbiddenSource, InvalidNotification } from '../errors';
import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import type { IngestStore } from '../store/ingest-store';
import { ackFormFor, sendFailure } from './acks';
import { answerFor } from './error-answer';
import { forwardedForForLog } from './forwarded-for';
import { logThrottle } from '../observability/log-throttle';

/**
 * The one place a failed request is answered: in the gateway's form, counted, logged, and
 * (for a bad body from an allowed source) kept raw in the rejections table. It never
 * throws, so no input can take the process down. The lean notification handler calls it
 * directly; Express reaches it through `errorHandler`.
 */
export function failureAnswerer(deps: ErrorDeps): FailureAnswerer {
  const { store, logger, metrics } = deps;
  // Anyone on the internet can send these: the count is in metrics, the log gets a sample.
  const forbiddenLogs = logThrottle(20, 60_000);
  return async (error, req, res) => {
    const answer = answerFor(error);
    const contentType = req.headers['content-type'] ?? null;
    const sourceIp = req.source?.ip ?? req.socket.remoteAddress ?? 'unknown';
    const notiType = error instanceof InvalidNotification ? error.notiType : 'unknown';

    if (error instanceof ForbiddenSource) {
      metrics.notifications.inc({ noti_type: 'unknown', outcome: 'forbidden' });
      const { log, suppressedBefore } = forbiddenLogs.admit();
      if (suppressedBefore > 0) logger.warn('refused requests not logged in the last minute', { suppressed: suppressedBefore });
      if (log) {
        logger.warn('refused a notification from an address outside the allowlist', {
          address: error.address, peer: req.socket.remoteAddress, ...forwardedForForLog(req.headers['x-forwarded-for']),
          fix: `if ${error.address} may send (a local test, a simulator), add it to EXTRA_ALLOWED_IPS (EXTRA_ALLOWED_IPS=${error.address}) and restart; behind a proxy, name the proxy in TRUST_PROXY`,
        });
      }
    } else if (answer.keepRaw) {
      metrics.notifications.inc({ noti_type: notiType, outcome: 'rejected' });
      const rawBody = Buffer.isBuffer(req.body) ? req.body : null;
      const rejectionId = await store
        .recordRejection({
          receivedAt: req.receivedAt ?? new Date().toISOString(),
          sourceIp,
          contentType,
          rawBody,
          httpStatus: answer.httpStatus,
          reason: answer.message,
        })
        .catch((storeError: Error) => {
          logger.error('could not keep a rejected notification', { error: storeError.message });
          return null;
        });
      logger.warn('notification rejected', {
        status: answer.httpStatus, reason: answer.message, rejectionId, sourceIp, contentType,
      });
    } else {
      metrics.notifications.inc({ noti_type: notiType, outcome: 'unavailable' });
      const log = answer.expected ? logger.warn.bind(logger) : logger.error.bind(logger);
      log('notification not stored; the gateway will retry', { status: answer.httpStatus, error: (error as Error)?.message });
    }

    if (res.headersSent) return;
    // An unread or half-read body cannot be left on a keep-alive connection.
    if (answer.httpStatus === 413 || answer.httpStatus === 403) res.setHeader('Connection', 'close');
    sendFailure(res, ackFormFor(contentType ?? undefined), answer.httpStatus, answer.message);
  };
}

/** The same answer for whatever fails inside Express (the 404/405 routes, a bug in a handler). */
export function errorHandler(answer: FailureAnswerer): ErrorRequestHandler {
  return (error, req, res, _next) =>
    answer(error, {
      headers: req.headers,
      socket: req.socket,
      receivedAt: res.locals.receivedAt as string | undefined,
      source: res.locals.source as Source | undefined,
      body: Buffer.isBuffer(req.body) ? req.body : null,
    }, res);
}

export interface ErrorDeps {
  store: Pick<IngestStore, 'recordRejection'>;
  logger: Logger;
  metrics: Metrics;
}

/** What is known about a request when it failed: each later field is set once its step passed. */
export interface FailedRequest {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string | undefined };
  receivedAt?: string;
  source?: Source;
  /** The body as read; null when it was never read (forbidden, too large). */
  body?: Buffer | null;
}

export type FailureAnswerer = (error: unknown, req: FailedRequest, res: ServerResponse) => Promise<void>;
