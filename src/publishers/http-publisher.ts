import { PermanentPublishError, type OutboundEvent, type Publisher, type PublisherStatus } from './publisher';
import { redactUrl } from '../observability/redact-url';

export interface HttpPublisherOptions {
  /** `http(s)://[user:pass@]host/path`: user info becomes a Basic Authorization header. */
  url: string;
  timeoutMs?: number;
}

/**
 * POSTs each event to a merchant endpoint with `Idempotency-Key` = event id. 2xx is delivery;
 * 408, 429, 5xx, redirects and network errors are transient (the relay retries in order);
 * any other 4xx is permanent: the endpoint refused these bytes, so the row goes dead for an
 * operator instead of blocking every event behind it.
 */
export function openHttpPublisher(options: HttpPublisherOptions): Publisher {
  const { endpoint, authorization } = splitCredentials(options.url);
  const target = redactUrl(options.url);
  const timeoutMs = options.timeoutMs ?? 10_000;
  let lastError: string | null = null;
  let closed = false;

  async function post(event: OutboundEvent): Promise<void> {
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Idempotency-Key': event.id,
          ...(authorization ? { Authorization: authorization } : {}),
          ...event.trace,
        },
        body: event.json,
        // A redirected POST may turn into a GET elsewhere: surface it as a misconfiguration instead.
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new Error(`POST ${target} failed: ${describe(error)}`);
    }
    // Drain the body so the keep-alive socket is reused. Only its size is kept: an endpoint's
    // error answer often echoes the event (names, card numbers), and this message reaches the
    // log, /readyz and the outbox's last_error.
    const size = await response.arrayBuffer().then((body) => body.byteLength, () => 0);
    if (response.status >= 200 && response.status < 300) return;
    const message = `POST ${target} answered ${response.status} with a ${size}-byte body`;
    if (isPermanentStatus(response.status)) throw new PermanentPublishError(message);
    throw new Error(message);
  }

  return {
    kind: 'http',
    async publish(event: OutboundEvent) {
      if (closed) throw new Error(`${target}: publisher is closed`);
      try {
        await post(event);
        lastError = null;
      } catch (error) {
        // A refused event says nothing about whether the endpoint is reachable.
        if (!(error instanceof PermanentPublishError)) lastError = (error as Error).message;
        throw error;
      }
    },
    status(): PublisherStatus {
      if (closed) return { connected: false, detail: `${target}: closed` };
      return lastError === null ? { connected: true, detail: target } : { connected: false, detail: lastError };
    },
    async close() {
      closed = true;
    },
  };
}

function isPermanentStatus(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** fetch refuses URLs with user info, and the credentials must not reach logs either. */
function splitCredentials(raw: string): { endpoint: string; authorization: string | null } {
  const url = new URL(raw);
  if (!url.username && !url.password) return { endpoint: url.toString(), authorization: null };
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  url.username = '';
  url.password = '';
  return { endpoint: url.toString(), authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}

function describe(error: unknown): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError') return 'timed out';
  return err.cause?.code ?? err.cause?.message ?? err.message;
}
