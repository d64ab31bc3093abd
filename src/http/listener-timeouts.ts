import type { ServerOptions } from 'node:http';

/** How long a client of a listener may take before its connection is cut. */
export interface ListenerTimeouts {
  /** From a request's first byte to the end of its headers. */
  headersMs: number;
  /** From a request's first byte to the end of its body. */
  requestMs: number;
  /** An open connection with no request in progress. */
  keepAliveMs: number;
}

/**
 * Far more than a few-KB notification (or an internal API body, or a console form) needs, so
 * a slow client cannot hold a socket for ever and the gateway never meets them. Keep-alive is
 * node's default. The request time-out bounds receiving a request, never answering it.
 */
export const LISTENER_TIMEOUTS: ListenerTimeouts = Object.freeze({ headersMs: 20_000, requestMs: 30_000, keepAliveMs: 5_000 });

/**
 * How often node looks for connections past the header or request time-out. Node's default
 * is every 30 s, which held a 20 s time-out's connection for up to 50 s; a tenth of the
 * shorter time-out (at most a second) cuts it within 5 %. The check walks the open
 * connections on a timer, not per request, so it costs the ack path nothing.
 */
function connectionsCheckingInterval(timeouts: ListenerTimeouts): number {
  return Math.max(1, Math.min(1_000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 10)));
}

/** The options that give node's HTTP server these time-outs (they must be set when it is created). */
export function listenerOptions(timeouts: ListenerTimeouts = LISTENER_TIMEOUTS): ServerOptions {
  return {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: connectionsCheckingInterval(timeouts),
  };
}
