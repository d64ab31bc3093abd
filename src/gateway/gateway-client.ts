import { GatewayNetworkError, GatewayNotConfigured, GatewayTimeout, GatewayUnparsableAnswer } from './gateway-errors';
import { OPERATIONS, type GatewayBaseUrls, type Operation } from './operations';

/** The gateway's JSON answer: always an object carrying `resCd`. */
export interface GatewayAnswer {
  httpStatus: number;
  body: Record<string, unknown> & { resCd: string };
}

export interface GatewayClient {
  /** One attempt: resolves with the gateway's JSON answer or throws a GatewayError (outcome unknown). */
  send(operation: Operation, body: Record<string, unknown>): Promise<GatewayAnswer>;
  /** Throws GatewayNotConfigured when the operation's base URL is unset. */
  assertConfigured(operation: Operation): void;
}

export interface GatewayClientOptions {
  baseUrls: GatewayBaseUrls;
  /** The gateway requires 30 s for a cancellation; one attempt never waits longer. */
  timeoutMs: number;
}

/** The one place that builds a request to the gateway, times it out and reads its answer. */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const urlFor = (operation: Operation): string => {
    const { base, path } = OPERATIONS[operation];
    const root = options.baseUrls[base];
    if (!root) throw new GatewayNotConfigured(base);
    return `${root}${path}`;
  };

  return {
    assertConfigured: (operation) => void urlFor(operation),
    async send(operation, body) {
      const url = urlFor(operation);
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        text = await response.text();
      } catch (error) {
        throw toGatewayError(error, options.timeoutMs);
      }
      return { httpStatus: response.status, body: parseAnswer(response.status, text) };
    },
  };
}

function parseAnswer(httpStatus: number, text: string): GatewayAnswer['body'] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new GatewayUnparsableAnswer(httpStatus, text);
  }
  // A proxy's error page in JSON is not the gateway's answer: without a resCd nothing is known.
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || typeof (parsed as { resCd?: unknown }).resCd !== 'string') {
    throw new GatewayUnparsableAnswer(httpStatus, text);
  }
  return parsed as GatewayAnswer['body'];
}

function toGatewayError(error: unknown, timeoutMs: number): Error {
  const e = error as { name?: string; cause?: { code?: string; name?: string; errors?: Array<{ code?: string }> } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return new GatewayTimeout(timeoutMs);
  // fetch wraps the socket error; a refused dual-stack connect wraps several.
  const cause = e?.cause;
  return new GatewayNetworkError(cause?.code ?? cause?.errors?.find((inner) => inner.code)?.code ?? cause?.name ?? 'unknown');
}
