import { redactUrl } from '../observability/redact-url';
import { answerText } from './answer-text';
import {
  GatewayAnswerTooLarge,
  GatewayError,
  GatewayNetworkError,
  GatewayNotConfigured,
  GatewayRedirect,
  GatewayTimeout,
  GatewayUnparsableAnswer,
} from './gateway-errors';
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
  /** What is read of one answer at most; ANSWER_LIMIT_BYTES unless a test needs another. */
  answerLimitBytes?: number;
}

/**
 * The gateway's answers are a few hundred bytes. Reading more (a 300 MB answer once exhausted
 * the heap and took the store down with it) is stopped here, and the attempt's outcome is unknown.
 */
export const ANSWER_LIMIT_BYTES = 1024 * 1024;

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
      // Aborted past the answer limit: the connection is dropped, not drained.
      const cut = new AbortController();
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
          body: JSON.stringify(body),
          // Never followed: see GatewayRedirect.
          redirect: 'manual',
          signal: AbortSignal.any([AbortSignal.timeout(options.timeoutMs), cut.signal]),
        });
        if (response.status >= 300 && response.status < 400) {
          cut.abort();
          throw new GatewayRedirect(response.status, locationOf(url, response.headers.get('location')));
        }
        text = await readCapped(response, options.answerLimitBytes ?? ANSWER_LIMIT_BYTES, cut);
      } catch (error) {
        if (error instanceof GatewayError) throw error;
        throw toGatewayError(error, options.timeoutMs);
      }
      return { httpStatus: response.status, body: parseAnswer(response.status, text) };
    },
  };
}

/** The body as text, read chunk by chunk so that no more than `limit` bytes are ever held. */
async function readCapped(response: Response, limit: number, cut: AbortController): Promise<string> {
  if (!response.body) return '';
  const tooLarge = () => {
    cut.abort();
    return new GatewayAnswerTooLarge(response.status, limit);
  };
  if (Number(response.headers.get('content-length') ?? 0) > limit) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return answerText(Buffer.concat(chunks), response.headers.get('content-type'));
}

/** The Location resolved against the request, without credentials or query (a token may ride in either). */
function locationOf(requestUrl: string, location: string | null): string {
  if (!location) return '';
  try {
    return redactUrl(new URL(location, requestUrl).toString());
  } catch {
    return redactUrl(location).slice(0, 200);
  }
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
