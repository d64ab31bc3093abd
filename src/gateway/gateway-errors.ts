/**
 * Why an attempt got no usable answer. Each is "outcome unknown" for the gateway: the request
 * may or may not have been processed, so the caller resends with the same key, or net-cancels
 * an approval. Messages never carry a secret or a body.
 */
export abstract class GatewayError extends Error {
  abstract readonly reason: 'timeout' | 'network' | 'unparsable';
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

/** The base URL of a route is unset: the route answers 503 naming the variable, nothing is recorded. */
export class GatewayNotConfigured extends Error {
  override readonly name = 'GatewayNotConfigured';
  constructor(readonly variable: string) {
    super(`${variable} is not set; set it to the gateway's base URL to use this route`);
  }
}
