/** How long a client of the notification listener may take before its connection is cut. */
export interface ListenerTimeouts {
  /** From a request's first byte to the end of its headers. */
  headersMs: number;
  /** From a request's first byte to the end of its body. */
  requestMs: number;
  /** An open connection with no request in progress. */
  keepAliveMs: number;
}

/**
 * Far more than a few-KB notification needs, so a slow client cannot hold a socket for ever
 * and the gateway never meets them. Keep-alive is node's default.
 */
export const LISTENER_TIMEOUTS: ListenerTimeouts = Object.freeze({ headersMs: 20_000, requestMs: 30_000, keepAliveMs: 5_000 });

/**
 * How often node looks for connections past the header or request time-out. Node's default
 * is every 30 s, which held a 20 s time-out's connection for up to 50 s; a tenth of the
 * shorter time-out (at most a second) cuts it within 5 %. The check walks the open
 * connections on a timer, not per request, so it costs the ack path nothing.
 */
export function connectionsCheckingInterval(timeouts: ListenerTimeouts): number {
  return Math.max(1, Math.min(1_000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 10)));
}
