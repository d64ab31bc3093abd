import Redis from 'ioredis';
import type { Logger } from '../observability/logger';
import type { OutboundEvent, Publisher, PublisherStatus } from './publisher';
import { redactUrl } from '../observability/redact-url';

const CONNECT_TIMEOUT_MS = 5_000;

export interface RedisPublisherOptions {
  /** `redis://[user:pass@]host:port[/db][?maxlen=N]`; the query is ours, not ioredis's. */
  url: string;
  /** The stream key. */
  queueName: string;
  logger?: Logger;
  /** A command that gets no reply within this time rejects, so a half-open socket never stalls the relay. */
  commandTimeoutMs?: number;
}

/**
 * Redis Streams: one `XADD` per event with fields `id`, `type` and `event` (the JSON); a batch
 * is one pipeline of XADDs in order, one round trip.
 * The XADD reply (the entry id) is Redis's acceptance; redelivery after a lost reply can
 * repeat an entry, so consumers de-duplicate on the `id` field (at-least-once).
 */
export function openRedisPublisher(options: RedisPublisherOptions): Publisher {
  const { queueName, logger } = options;
  const { connectUrl, maxLen } = parseRedisUrl(options.url);
  const target = `${redactUrl(connectUrl)} stream ${queueName}`;
  let lastError: string | null = null;
  let closed = false;

  const redis = new Redis(connectUrl, {
    // Fail fast while Redis is down: the event stays in the outbox and the relay retries it in
    // order, instead of piling commands into ioredis's memory or hanging the relay.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 5_000,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // Keep reconnecting for as long as the process lives; a restart of Redis must heal by itself.
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
    // close() only disconnects when QUIT failed, i.e. the socket is already dead or half-open;
    // ioredis's 2 s grace timer would then keep a stopping process (and jest) alive for nothing.
    disconnectTimeout: 0,
  });
  // Without an 'error' listener ioredis's connection errors would crash the process.
  redis.on('error', (error: Error) => {
    if (lastError === null) logger?.warn('queue unreachable; reconnecting, events wait in the outbox', { queue: target, error: error.message });
    lastError = error.message;
  });
  const reconnected: Array<() => void> = [];
  // Every 'ready' after the first is a reconnection: a dropped socket that ioredis reopened at
  // once may never have raised 'error', yet the relay's failed publish is waiting out its back-off.
  let readyBefore = false;
  redis.on('ready', () => {
    if (lastError !== null) logger?.info('queue connection restored', { queue: target });
    lastError = null;
    if (readyBefore) for (const listener of reconnected) listener();
    readyBefore = true;
  });

  /**
   * Without the offline queue a command sent while a connection attempt is still in progress
   * (just after open or a restart) would fail for nothing: wait for that attempt, never longer.
   */
  function connectionAttempt(): Promise<void> {
    if (redis.status !== 'connecting' && redis.status !== 'connect') return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, CONNECT_TIMEOUT_MS);
      redis.once('ready', done);
      redis.once('close', done);
    });
  }

  const trim: Array<string | number> = maxLen === null ? [] : ['MAXLEN', '~', maxLen];

  return {
    kind: 'redis',
    async publish(event: OutboundEvent) {
      if (closed) throw new Error(`${target}: publisher is closed`);
      await connectionAttempt();
      await redis.xadd(queueName, ...trim, '*', ...entryFields(event));
    },
    async publishBatch(events: readonly OutboundEvent[]) {
      if (closed) throw new Error(`${target}: publisher is closed`);
      await connectionAttempt();
      const pipeline = redis.pipeline();
      for (const event of events) pipeline.xadd(queueName, ...trim, '*', ...entryFields(event));
      const replies = (await pipeline.exec()) ?? [];
      const failed = replies.find(([error]) => error);
      if (failed || replies.length !== events.length) throw failed?.[0] ?? new Error(`${target}: pipeline answered ${replies.length} of ${events.length}`);
    },
    onReconnected: (listener) => void reconnected.push(listener),
    status(): PublisherStatus {
      if (redis.status === 'ready') return { connected: true, detail: target };
      return { connected: false, detail: `${target}: ${closed ? 'closed' : lastError ?? redis.status}` };
    },
    async close() {
      if (closed) return;
      closed = true;
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** A stream entry's fields: id, type, the event JSON, and the W3C trace context when tracing is on. */
function entryFields(event: OutboundEvent): string[] {
  const fields = ['id', event.id, 'type', event.type, 'event', event.json];
  if (event.trace) {
    fields.push('traceparent', event.trace.traceparent);
    if (event.trace.tracestate) fields.push('tracestate', event.trace.tracestate);
  }
  return fields;
}

export function parseRedisUrl(raw: string): { connectUrl: string; maxLen: number | null } {
  const url = new URL(raw);
  const maxLenParam = url.searchParams.get('maxlen');
  let maxLen: number | null = null;
  if (maxLenParam !== null) {
    maxLen = Number(maxLenParam);
    if (!Number.isInteger(maxLen) || maxLen <= 0) {
      throw new Error(`QUEUE_URL maxlen must be a positive integer, got ${JSON.stringify(maxLenParam)}`);
    }
  }
  url.search = '';
  return { connectUrl: url.toString(), maxLen };
}
