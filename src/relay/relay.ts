import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import { isPermanent, type OutboundEvent, type Publisher } from '../publishers/publisher';
import type { OutboxRecord, Store } from '../store/store';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './backoff';

export interface RelayOptions {
  store: Store;
  publisher: Publisher;
  logger: Logger;
  metrics?: Metrics;
  batchSize?: number;
  /**
   * After a wake-up, how long to let further commits gather before reading the outbox: under
   * load one pass then carries many commits' events in one publish and one mark-delivered.
   */
  coalesceMs?: number;
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
 * moves on. The loop runs beside request handling and never holds an ack. A pass that fails
 * as a whole (the store cannot read or mark rows delivered) backs off like a failed publish,
 * so a batch the queue already took is not republished every poll interval.
 */
export function startRelay(options: RelayOptions): Relay {
  const { store, publisher, logger, metrics } = options;
  const batchSize = options.batchSize ?? 500;
  const coalesceMs = options.coalesceMs ?? 2;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const maxAttempts = options.maxAttempts ?? 0;

  const state: RelayState = { running: true, holdsLock: false, lastError: null, lastDeliveredAt: null };
  let stopping = false;
  let draining = false;
  let wakeUp: (() => void) | null = null;
  let woken = false;
  /** While the head waits out its backoff, new events queue behind it: waking would only re-read it. */
  let headDueAt = 0;
  let failedPasses = 0;

  const wake = () => {
    woken = true;
    if (Date.now() >= headDueAt) wakeUp?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if ((woken && Date.now() >= headDueAt) || stopping) return resolve();
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
    headDueAt = 0;
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
    if (notDue === -1) return 0;
    headDueAt = rows[notDue]!.nextAttemptAt;
    return Math.max(1, headDueAt - Date.now());
  }

  async function deliverBatch(rows: OutboxRecord[]): Promise<boolean> {
    const started = process.hrtime.bigint();
    try {
      await publisher.publishBatch!(rows.map(outbound));
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
      await publisher.publish(outbound(row));
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
    await store.markDelivered(rows.map((row) => row.seq), now.toISOString(), publisher.kind);
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
      await store.markDead(row.seq, error.message, { publisher: publisher.kind });
      return true;
    }
    metrics?.publishes.inc({ publisher: publisher.kind, outcome: 'retry' });
    const delay = backoffDelay(attempt, backoff);
    logger.warn('publish failed; retrying in order', {
      eventId: row.eventId, type: row.eventType, attempt, retryInMs: delay, error: error.message,
    });
    await store.markRetry(row.seq, error.message, Date.now() + delay, { publisher: publisher.kind });
    return false;
  }

  const loop = (async () => {
    while (!stopping) {
      if (woken && coalesceMs > 0 && !draining) await pause(coalesceMs);
      woken = false;
      let wait: number | null;
      try {
        wait = await pass();
        failedPasses = 0;
      } catch (error) {
        // The store is down or refuses the delivered mark: keep the backlog where it is and try
        // again after a growing pause; never exit on it, never spin on it.
        failedPasses += 1;
        wait = backoffDelay(failedPasses, backoff);
        headDueAt = Date.now() + wait;
        state.lastError = (error as Error).message;
        logger.warn('relay pass failed; retrying', { attempt: failedPasses, retryInMs: wait, error: (error as Error).message });
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
      // Even a head in backoff is tried once more: shutdown drains what it can.
      woken = true;
      wakeUp?.();
      if (drainMs <= 0) stopping = true;
      await loop;
      clearTimeout(deadline);
    },
  };
}

/** The stored JSON goes out as the store committed it: no parse, no re-serialization. */
function outbound(row: OutboxRecord): OutboundEvent {
  return { id: row.eventId, type: row.eventType, receivedAt: row.receivedAt, json: row.eventJson };
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
