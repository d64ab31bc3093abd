import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { LISTENER_TIMEOUTS, listenerOptions, type ListenerTimeouts } from './listener-timeouts';

/**
 * Node's HTTP server for the internal API, the admin listener and the sandbox: the
 * notification listener's time-outs for headers, body and idle keep-alive, and the connection
 * closed after a refusal that leaves a body unread. Node would otherwise read the rest of that
 * body to keep the connection (an unauthenticated client trickling a declared 100 kB held its
 * socket for minutes after its 401).
 */
export function createBoundedServer(listener: RequestListener, timeouts: ListenerTimeouts = LISTENER_TIMEOUTS): Server {
  const server = createServer(listenerOptions(timeouts));
  server.on('request', closeAfterRefusal);
  server.on('request', listener);
  return server;
}

/**
 * `Connection: close` on a 401 (whoever sent it gets no second try on this socket), and on any
 * refusal answered before its body arrived. Wrapped on the response itself, since Express
 * replaces its prototype and every answer, implicit ones too, goes through writeHead.
 */
function closeAfterRefusal(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    if (status === 401 || (status >= 400 && hasBody(req) && !req.complete)) res.setHeader('Connection', 'close');
    return writeHead(status, ...rest);
  }) as ServerResponse['writeHead'];
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}
