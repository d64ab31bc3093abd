import express, { Router } from 'express';
import { receiveNotification, type ReceiveDeps } from '../notifications/receive-notification';
import { ackFormFor, sendSuccess } from './acks';
import { decodeBody } from './decode-body';
import { sourceCheck, type Source, type SourcePolicy } from './source-check';

/** Real notifications are a few KB; anything near this is not from the gateway. */
export const MAX_BODY_BYTES = 64 * 1024;

/** The one POST path for every event: source check → raw bytes → decode → validate+store → ack. */
export function notificationRoute(path: string, policy: SourcePolicy, deps: ReceiveDeps): Router {
  const router = Router();
  router.post(
    path,
    sourceCheck(policy),
    // Raw bytes whatever the Content-Type: decoding is ours (EUC-KR forms), and a refused body is kept as sent.
    express.raw({ type: () => true, limit: MAX_BODY_BYTES }),
    async (req, res) => {
      const contentType = req.headers['content-type'];
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const fields = decodeBody(rawBody, contentType);
      const source = res.locals.source as Source;
      await receiveNotification(
        {
          fields,
          rawBody,
          contentType: contentType ?? '',
          receipt: { receivedAt: res.locals.receivedAt as string, sourceIp: source.ip, environment: source.environment },
        },
        deps,
      );
      sendSuccess(res, ackFormFor(contentType));
    },
  );
  return router;
}
