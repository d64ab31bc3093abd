import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidNotification, PayloadTooLarge, UnsupportedMediaType } from '../errors';

/** Real notifications are a few KB; anything near this is not from the gateway. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The raw bytes as sent, whatever the Content-Type: decoding is ours (EUC-KR forms), and a
 * refused body is kept exactly as it came. A declared length over the limit is refused
 * before a byte is read; a chunked body is cut off at the limit. A client that sent
 * `Expect: 100-continue` is invited to send only here, after every check that needs no body.
 */
export function readBody(req: IncomingMessage, res: ServerResponse, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    req.resume();
    return Promise.reject(new PayloadTooLarge('body too large'));
  }
  if (req.headers.expect !== undefined) inviteBody(res);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // 'close' follows every request, long after 'end' settled the promise: nothing is built then
    // (an Error captures a stack, which cost 4 % of the hot path's CPU when built for nothing).
    let settled = false;
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        settled = true;
        reject(new PayloadTooLarge('body too large'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    // A client gone mid-body (reset, or node's request timeout) ends in 'error' or a bare 'close'.
    const incomplete = () => {
      if (settled) return;
      settled = true;
      reject(new InvalidNotification('incomplete request body'));
    };
    req.on('error', incomplete);
    req.on('close', incomplete);
  });
}

/**
 * The gateway never compresses. A body in another coding is refused (415) after it was read,
 * so an operator still finds it, as sent, among the rejections.
 */
export function assertIdentityEncoding(req: IncomingMessage): void {
  const coding = req.headers['content-encoding'];
  if (coding === undefined) return;
  const codings = coding.split(',').map((c) => c.trim().toLowerCase()).filter(Boolean);
  if (codings.every((c) => c === 'identity')) return;
  throw new UnsupportedMediaType(`unsupported Content-Encoding ${codings.join(', ').slice(0, 60)}; send the body uncompressed`);
}

/**
 * `100 Continue`, unless node already sent it: it does so itself on a server without a
 * 'checkContinue' listener (supertest's), and only the receiver's own listener defers it
 * to this point (createNotificationServer).
 */
function inviteBody(res: ServerResponse): void {
  if (!(res as ServerResponse & { _sent100?: boolean })._sent100) res.writeContinue();
}
