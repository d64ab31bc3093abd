/**
 * Why an attempt got no usable answer. Each is "outcome unknown" for the gateway: the request
 * may or may not have been processed, so the caller resends with the same key, or net-cancels
 * an approval. Messages never carry a secret or a body.
 */
export abstract class GatewayError extends Error {
  abstract readonly reason: 'timeout' | 'network' | 'unparsable' | 'redirect' | 'too-large';
}

export class GatewayTimeout extends GatewayError {
  override readonly name = 'GatewayTimeout';
  readonly reason = 'timeout';
  constructor(timeoutMs: number) {
    super(`time-out after ${timeoutMs} ms`);
  }
}

export class GatewayNetworkError extends GatewayError {
  override readonly name = 'GatewayNetworkError';
  readonly reason = 'network';
  constructor(code: string) {
    super(`network error: ${code}`);
  }
}

export class GatewayUnparsableAnswer extends GatewayError {
  override readonly name = 'GatewayUnparsableAnswer';
  readonly reason = 'unparsable';
  constructor(readonly httpStatus: number, readonly bodyText: string) {
    super(`HTTP ${httpStatus} without the gateway's JSON answer`);
  }
}

/**
 * A 3xx is a proxy's or a hijacked DNS name's answer, never the gateway's: following it would
 * send the request (its msgAuthValue included) to another host and take that host's `0000` as
 * the gateway's. Not followed; the Location is kept (without credentials or query) for the operator.
 */
export class GatewayRedirect extends GatewayError {
  override readonly name = 'GatewayRedirect';
  readonly reason = 'redirect';
  constructor(readonly httpStatus: number, readonly location: string) {
    super(location ? `HTTP ${httpStatus} redirect to ${location}, not followed` : `HTTP ${httpStatus} without a Location: a 3xx is not the gateway's answer`);
  }
}

/** The answer grew past what any gateway answer needs: reading stopped there, so nothing is known. */
export class GatewayAnswerTooLarge extends GatewayError {
  override readonly name = 'GatewayAnswerTooLarge';
  readonly reason = 'too-large';
  constructor(readonly httpStatus: number, limitBytes: number) {
    super(`HTTP ${httpStatus} answer larger than ${limitBytes} bytes, not read further`);
  }
}

/** A setting a route needs is unset: the route answers 503 naming the variable and how to set it, nothing is recorded. */
export class GatewayNotConfigured extends Error {
  override readonly name = 'GatewayNotConfigured';
  constructor(readonly variable: string, fix = "set it to the gateway's base URL to use this route") {
    super(`${variable} is not set; ${fix}`);
  }
}
