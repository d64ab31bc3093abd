import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../observability/logger';
import { jsonFailure } from './acks';

/** Node answers these itself (before any handler runs) unless told otherwise. */
const ANSWERS: Record<string, { status: number; text: string; reason: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, text: 'Request Header Fields Too Large', reason: 'request headers too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, text: 'Request Timeout', reason: 'request not received in time' },
};
const MALFORMED = { status: 400, text: 'Bad Request', reason: 'malformed HTTP request' };

/** Node's own fields on a server socket: the response that has the socket now, if any. */
type ServerSocket = Duplex & { remoteAddress?: string; _httpMessage?: (ServerResponse & { req?: IncomingMessage }) | null };

/**
 * Requests node's parser refuses (malformed, headers too large, too slow) get the gateway's
 * JSON form with 5001 like every other refusal, instead of node's bare status line. The
 * headers were never parsed, so the Content-Type (and the event-70 form) cannot be known.
 *
 * A refused request may follow others on the same connection (HTTP/1.1 pipelining) that were
 * received whole and are still being stored: each gets its own answer first, in order, and
 * only then the refusal that closes the connection. Answering at once would cut off the ack
 * of a notification already stored, and the gateway would retry it.
 */
export function answerClientErrors(server: Server, logger: Logger): void {
  // Sockets whose refusal waits for the answers ahead of it. The parser stays failed and
  // reports again on every later packet; only node's time-out (the answers ahead took longer
  // than a request may) ends the wait early.
  const waiting = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, duplex: Duplex) => {
    const socket = duplex as ServerSocket;
    if (waiting.has(socket)) {
      if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.destroy();
      return;
    }
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer = ANSWERS[error.code ?? ''] ?? MALFORMED;
    logger.warn('refused a request the HTTP parser could not take', { status: answer.status, code: error.code, peer: socket.remoteAddress });
    const refuse = () => {
      if (!socket.writable) {
        socket.destroy();
        return;
      }
      const ahead = socket._httpMessage;
      if (ahead && ahead.req?.complete) {
        waiting.add(socket);
        // Node hands the socket to the next pipelined response in its own 'finish' listener, added first.
        ahead.once('finish', refuse);
        return;
      }
      // The response in progress is the refused request's own (its body broke): another
      // status line after its first bytes would corrupt it, node's own rule.
      if (ahead?.headersSent) {
        socket.destroy();
        return;
      }
      const body = jsonFailure(answer.reason);
      // A parser error fails every later packet, which destroys the socket (above). A time-out
      // leaves the parser reading: a client that ignores our FIN and keeps sending header lines
      // would hold the socket until the header size limit, an hour at a few bytes a second.
      // So a timed-out one is destroyed once its answer is out, as node does by itself.
      const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
      socket.end(
        `HTTP/1.1 ${answer.status} ${answer.text}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.toString()}`,
        () => timedOut && socket.destroy(),
      );
    };
    refuse();
  });
}
