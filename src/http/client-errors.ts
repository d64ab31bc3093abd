import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../observability/logger';
import { jsonFailure } from './acks';

/** Node answers these itself (before any handler runs) unless told otherwise. */
const ANSWERS: Record<string, { status: number; text: string; reason: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, text: 'Request Header Fields Too Large', reason: 'request headers too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, text: 'Request Timeout', reason: 'request not received in time' },
};
const MALFORMED = { status: 400, text: 'Bad Request', reason: 'malformed HTTP request' };

/**
 * Requests node's parser refuses (malformed, headers too large, too slow) get the gateway's
 * JSON form with 5001 like every other refusal, instead of node's bare status line. The
 * headers were never parsed, so the Content-Type (and the event-70 form) cannot be known.
 */
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    const answer = ANSWERS[error.code ?? ''] ?? MALFORMED;
    logger.warn('refused a request the HTTP parser could not take', {
      status: answer.status, code: error.code, peer: (socket as Duplex & { remoteAddress?: string }).remoteAddress,
    });
    const body = jsonFailure(answer.reason);
    socket.end(
      `HTTP/1.1 ${answer.status} ${answer.text}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.toString()}`,
    );
  });
}

/** Once a response is on the wire, another status line would corrupt it: node's own rule. */
function responseStarted(socket: Duplex): boolean {
  const message = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return Boolean(message?.headersSent);
}
