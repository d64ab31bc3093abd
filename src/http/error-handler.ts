import type { ErrorRequestHandler } from 'express';
import { ForbiddenSource, InvalidNotification } from '../errors';
import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import type { Store } from '../store/store';
import { ackFormFor, sendFailure } from './acks';
import { answerFor } from './error-answer';
import { forwardedForForLog } from './forwarded-for';
import { logThrottle } from '../observability/log-throttle';

/**
 * The one place a failed request is answered: in the gateway's form, counted, logged, and
 * (for a bad body from an allowed source) kept raw in the rejections table. It never
 * throws, so no input can take the process down.
 */
export function errorHandler(deps: { store: Store; logger: Logger; metrics: Metrics }): ErrorRequestHandler {
  const { store, logger, metrics } = deps;
  // Anyone on the internet can send these: the count is in metrics, the log gets a sample.
  const forbiddenLogs = logThrottle(20, 60_000);
  return async (error, req, res, _next) => {
    const answer = answerFor(error);
    const contentType = req.headers['content-type'] ?? null;
    const sourceIp = (res.locals.source as { ip: string } | undefined)?.ip ?? req.socket.remoteAddress ?? 'unknown';
    const notiType = error instanceof InvalidNotification ? error.notiType : 'unknown';

    if (error instanceof ForbiddenSource) {
      metrics.notifications.inc({ noti_type: 'unknown', outcome: 'forbidden' });
      const { log, suppressedBefore } = forbiddenLogs.admit();
      if (suppressedBefore > 0) logger.warn('refused requests not logged in the last minute', { suppressed: suppressedBefore });
      if (log) {
        logger.warn('refused a notification from an address outside the allowlist', {
          address: error.address, peer: req.socket.remoteAddress, ...forwardedForForLog(req.headers['x-forwarded-for']),
        });
      }
    } else if (answer.keepRaw) {
      metrics.notifications.inc({ noti_type: notiType, outcome: 'rejected' });
      const rawBody = Buffer.isBuffer(req.body) ? req.body : null;
      const rejectionId = await store
        .recordRejection({
          receivedAt: (res.locals.receivedAt as string | undefined) ?? new Date().toISOString(),
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
