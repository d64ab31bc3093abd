import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import { isPermanent, type Publisher } from '../publishers/publisher';
import type { NormalizedEvent } from '../notifications/normalized-event';
import type { OutboxRecord, Store } from '../store/store';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './backoff';

export interface RelayOptions {
  store: Store;
  publisher: Publisher;
  logger: Logger;
  metrics?: Metrics;
  batchSize?: number;
  /** Upper bound on how long a new event can wait when no wake-up arrives (other replicas' writes). */
  pollIntervalMs?: number;
  backoff?: BackoffOptions;
  /** 0 = never give up on a transient failure (the default: giving up would reorder events). */
  maxAttempts?: number;
}

export interface RelayState {
  running: boolean;
  /** Whether the last pass held the relay lock: on PostgreSQL only one replica's relay works. */
  holdsLock: boolean;
  lastError: string | null;
  lastDeliveredAt: string | null;
}

export interface Relay {
  state(): RelayState;
  /** Wake the loop now (new events were committed). */
  wake(): void;
  /** Deliver what is pending for up to `drainMs`, then stop after the publish in flight. */
  stop(drainMs?: number): Promise<void>;
}

/**
 * Drains the outbox to the publisher in arrival (seq) order, at least once. The head row
 * blocks the rows behind it while it is retried with backoff, so the queue never sees
 * events out of order; only a permanent failure (or `maxAttempts`) marks a row dead and
 * moves on. The loop runs beside request handling and never holds an ack.
 */
export function startRelay(options: RelayOptions): Relay {
  const { store, publisher, logger, metrics } = options;
  const batchSize = options.batchSize ?? 100;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const maxAttempts = options.maxAttempts ?? 0;

  const state: RelayState = { running: true, holdsLock: false, lastError: null, lastDeliveredAt: null };
  let stopping = false;
  let draining = false;
  let wakeUp: (() => void) | null = null;
  let woken = false;

  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopping) return resolve();
      const timer = setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });

  store.onNewEvents(wake);

  /** Returns how long to wait before the next pass, 0 to go again at once, null when drained. */
  async function pass(): Promise<number | null> {
    // A standby has nothing of its own to drain: "drained" lets its shutdown finish at once
    // instead of waiting out SHUTDOWN_TIMEOUT_MS while the lock holder does the work.
    state.holdsLock = await store.holdsRelayLock();
    if (!state.holdsLock) return null;
    const rows = await store.nextPending(batchSize);
    if (rows.length === 0) return null;
    const now = Date.now();
    const notDue = rows.findIndex((row) => row.nextAttemptAt > now);
    const due = notDue === -1 ? rows : rows.slice(0, notDue);
    // A batch publisher takes the whole due run in one write/fsync/confirm round; if it fails,
    // the rows go one at a time so each gets its own retry or dead verdict, in order.
    if (!(due.length > 1 && publisher.publishBatch && (await deliverBatch(due)))) {
      for (const row of due) {
        if (stopping || !(await deliver(row))) return 0;
      }
    }
    // Wait for the first row that was not due yet; it still holds back everything behind it.
    return notDue === -1 ? 0 : Math.max(1, rows[notDue]!.nextAttemptAt - Date.now());
  }

  async function deliverBatch(rows: OutboxRecord[]): Promise<boolean> {
    const started = process.hrtime.bigint();
    try {
      await publisher.publishBatch!(rows.map(eventOf));
    } catch (error) {
      logger.warn('batch publish failed; publishing one at a time', { events: rows.length, error: (error as Error).message });
      return false;
    }
    await delivered(rows, started);
    return true;
  }

  /** True when the loop may go on to the next row. */
  async function deliver(row: OutboxRecord): Promise<boolean> {
    const started = process.hrtime.bigint();
    try {
      await publisher.publish(eventOf(row));
    } catch (error) {
      return handleFailure(row, error as Error);
    }
    await delivered([row], started);
    return true;
  }

  async function delivered(rows: OutboxRecord[], started: bigint): Promise<void> {
    const now = new Date();
    metrics?.publishLatency.observe({ publisher: publisher.kind }, Number(process.hrtime.bigint() - started) / 1e9);
    metrics?.publishes.inc({ publisher: publisher.kind, outcome: 'delivered' }, rows.length);
    for (const row of rows) metrics?.receiveToQueue.observe((now.getTime() - Date.parse(row.receivedAt)) / 1000);
    await store.markDelivered(rows.map((row) => row.seq), now.toISOString());
    state.lastError = null;
    state.lastDeliveredAt = now.toISOString();
  }

  async function handleFailure(row: OutboxRecord, error: Error): Promise<boolean> {
    const attempt = row.attempts + 1;
    state.lastError = error.message;
    if (isPermanent(error) || (maxAttempts > 0 && attempt >= maxAttempts)) {
      metrics?.publishes.inc({ publisher: publisher.kind, outcome: 'dead' });
      logger.error('event marked dead; an operator must requeue it', {
        eventId: row.eventId, type: row.eventType, attempt, error: error.message,
      });
      await store.markDead(row.seq, error.message);
      return true;
    }
    metrics?.publishes.inc({ publisher: publisher.kind, outcome: 'retry' });
    const delay = backoffDelay(attempt, backoff);
    logger.warn('publish failed; retrying in order', {
      eventId: row.eventId, type: row.eventType, attempt, retryInMs: delay, error: error.message,
    });
    await store.markRetry(row.seq, error.message, Date.now() + delay);
    return false;
  }

  const loop = (async () => {
    while (!stopping) {
      woken = false;
      let wait: number | null;
      try {
        wait = await pass();
      } catch (error) {
        // The store is down: keep the backlog where it is and try again; never exit on it.
        state.lastError = (error as Error).message;
        logger.warn('relay pass failed', { error: (error as Error).message });
        wait = pollIntervalMs;
      }
      if (draining && (wait === null || state.lastError !== null)) break;
      if (wait !== 0) await sleep(wait ?? pollIntervalMs);
    }
    state.running = false;
    state.holdsLock = false;
  })();

  return {
    state: () => ({ ...state }),
    wake,
    async stop(drainMs = 0) {
      draining = true;
      const deadline = setTimeout(() => {
        stopping = true;
        wakeUp?.();
      }, drainMs);
      wake();
      if (drainMs <= 0) stopping = true;
      await loop;
      clearTimeout(deadline);
    },
  };
}

/** The publishers still take the event object; the stored JSON is what was normalized at receipt. */
function eventOf(row: OutboxRecord): NormalizedEvent {
  return JSON.parse(row.eventJson) as NormalizedEvent;
}
