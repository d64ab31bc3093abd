import { createServer, type RequestListener, type Server } from 'node:http';
import type { Logger } from '../observability/logger';
import { answerClientErrors } from './client-errors';
import { LISTENER_TIMEOUTS, listenerOptions, type ListenerTimeouts } from './listener-timeouts';

/**
 * The notification listener: node's HTTP server with the receiver's time-outs, its parser's
 * refusals in the gateway's form, and `Expect: 100-continue` left to the handler.
 */
export function createNotificationServer(listener: RequestListener, logger: Logger, timeouts: ListenerTimeouts = LISTENER_TIMEOUTS): Server {
  const server = createServer(listenerOptions(timeouts), listener);
  answerClientErrors(server, logger);
  // Node answers `100 Continue` before any handler runs unless this event has a listener: a
  // stranger or an oversized body would be invited to send. The handler sends it once the
  // source and the declared length passed (see readBody).
  server.on('checkContinue', listener);
  return server;
}
