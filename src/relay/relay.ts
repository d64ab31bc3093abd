import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import { isPermanent, type OutboundEvent, type Publisher } from '../publishers/publisher';
import type { OutboxRecord, Store } from '../store/store';
import { startPublishSpans } from './publish-spans';
import type { Tracing } from '../tracing/tracing';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from '../backoff';
import { WakeSignal } from '../wake-signal';
import { ConfirmedEvents } from './confirmed-events';
import { verdictOf } from './retry-rules';
import { nextTurn, slicesOf } from './slices';

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
  /**
   * How many confirmed-but-unmarked events the relay remembers while the store refuses the
   * delivered mark. Past it the oldest are forgotten and published again (at least once).
   */
  maxConfirmedUnmarked?: number;
  /** Null or absent: tracing off, and publishing makes no span and carries no trace context. */
  tracing?: Tracing | null;
}

export interface RelayState {
  running: boolean;
  /** Whether the last pass held the relay lock: on PostgreSQL only one replica's relay works. */
  holdsLock: boolean;
  /** The publisher's last error (the queue refused or could not be reached), null once it took events again. */
  lastError: string | null;
  /**
   * The store's last error in a relay pass (it could not read the outbox or record what the queue
   * confirmed), null after the next pass that worked: kept apart from `lastError` so /readyz does
   * not blame a healthy queue for the database's failure.
   */
  storeError: string | null;
  /** Events the queue confirmed whose delivered mark the store has not taken yet: they are marked, not published, again. */
  confirmedUnmarked: number;
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
 * as a whole (the store cannot read or mark rows delivered) backs off like a failed publish.
 * What the queue confirmed is remembered until the store takes the mark: a full disk under the
 * database makes the relay retry the mark, not the publish (10 events were written 8-9 times
 * each in 70 s before). Only a restart forgets it, which repeats each such event once.
 */
export function startRelay(options: RelayOptions): Relay {
  const { store, publisher, logger, metrics } = options;
  const batchSize = options.batchSize ?? 500;
  const coalesceMs = options.coalesceMs ?? 2;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const maxAttempts = options.maxAttempts ?? 0;
  const confirmed = new ConfirmedEvents(options.maxConfirmedUnmarked ?? 100_000);
  const tracing = options.tracing ?? null;

  const state: RelayState = {
    running: true, holdsLock: false, lastError: null, storeError: null, confirmedUnmarked: 0, lastDeliveredAt: null,
  };
  let draining = false;
  /** While the head waits out its backoff, new events queue behind it: waking would only re-read it. */
  let headDueAt = 0;
  let failedPasses = 0;
  /** The queue came back: the next pass tries the head now instead of waiting out its back-off. */
  let retryNow = false;
  const signal = new WakeSignal(() => Date.now() >= headDueAt);
  const wake = () => signal.wake();

  store.onNewEvents(wake);
  // The back-off guessed when the queue might be back; once it is, waiting longer only delays delivery.
  publisher.onReconnected?.(() => {
    retryNow = true;
    headDueAt = 0;
    wake();
  });

  /** Returns how long to wait before the next pass, 0 to go again at once, null when drained. */
  async function pass(): Promise<number | null> {
    // A standby has nothing of its own to drain: "drained" lets its shutdown finish at once
    // instead of waiting out SHUTDOWN_TIMEOUT_MS while the lock holder does the work.
    state.holdsLock = await store.holdsRelayLock();
    if (!state.holdsLock) {
      // The replica holding the lock now publishes and marks them (once more: at least once).
      confirmed.clear();
      state.confirmedUnmarked = 0;
      return null;
    }
    const ignoreBackoff = retryNow;
    retryNow = false;
    const rows = await store.nextPending(batchSize);
    headDueAt = 0;
    if (rows.length === 0) return null;
    const now = Date.now();
    const notDue = ignoreBackoff ? -1 : rows.findIndex((row) => row.nextAttemptAt > now);
    const due = notDue === -1 ? rows : rows.slice(0, notDue);
    const unpublished = await markConfirmed(due);
    // Slice by slice, each in its own turn of the event loop: a large run built and serialised at
    // once held the gateway's acks for tens of ms. Order holds: a slice that fails ends the pass.
    for (const [index, slice] of slicesOf(unpublished).entries()) {
      if (index > 0) {
        await nextTurn();
        if (signal.stopped) return 0;
      }
      if (!(await deliverSlice(slice))) return 0;
    }
    // Wait for the first row that was not due yet; it still holds back everything behind it.
    if (notDue === -1) return 0;
    headDueAt = rows[notDue]!.nextAttemptAt;
    return Math.max(1, headDueAt - Date.now());
  }

  /** True when the pass may go on to the next slice. */
  async function deliverSlice(rows: OutboxRecord[]): Promise<boolean> {
    // A batch publisher takes the whole slice in one write/fsync/confirm round; if it fails,
    // the rows go one at a time so each gets its own retry or dead verdict, in order.
    const batch = rows.length > 1 && publisher.publishBatch ? await deliverBatch(rows) : 'one-at-a-time';
    if (batch === 'failed') return false;
    if (batch === 'one-at-a-time') {
      for (const row of rows) {
        if (signal.stopped || !(await deliver(row))) return false;
      }
    }
    return true;
  }

  /**
   * Marks the rows the queue already confirmed in an earlier pass (their mark failed) and returns
   * the rest, in order. The store refusing again fails the pass, which backs off.
   */
  async function markConfirmed(rows: OutboxRecord[]): Promise<OutboxRecord[]> {
    const known = rows.filter((row) => confirmed.has(row));
    if (known.length === 0) return rows;
    const rest = rows.filter((row) => !confirmed.has(row));
    await markDelivered(known, new Date());
    return rest;
  }

  async function deliverBatch(rows: OutboxRecord[]): Promise<'delivered' | 'one-at-a-time' | 'failed'> {
    const started = process.hrtime.bigint();
    const spans = tracing ? startPublishSpans(tracing, rows, publisher.kind, outbound) : null;
    try {
      await publisher.publishBatch!(spans ? spans.events : rows.map(outbound));
      spans?.end();
    } catch (error) {
      spans?.end(error as Error);
      // The queue is unreachable: one at a time would only fail the head again, and log a second,
      // contradicting line for the same failure. The head waits out its back-off for all of them.
      if (!isPermanent(error) && !publisher.status().connected) {
        await handleFailure(rows[0]!, error as Error, rows.length);
        // Even when that made the head dead (maxAttempts), the next pass reads the outbox afresh.
        return 'failed';
      }
      // Connected, so one event may be what the queue refused: find it, each row with its own verdict.
      logger.debug('batch publish failed; publishing one at a time', { events: rows.length, error: (error as Error).message });
      return 'one-at-a-time';
    }
    await delivered(rows, started);
    return 'delivered';
  }

  /** True when the loop may go on to the next row. */
  async function deliver(row: OutboxRecord): Promise<boolean> {
    const started = process.hrtime.bigint();
    const spans = tracing ? startPublishSpans(tracing, [row], publisher.kind, outbound) : null;
    try {
      await publisher.publish(spans ? spans.events[0]! : outbound(row));
      spans?.end();
    } catch (error) {
      spans?.end(error as Error);
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
    state.lastError = null;
    // Remembered before the store is asked: if it refuses, the next pass marks them instead of publishing them again.
    for (const row of rows) confirmed.add(row);
    await markDelivered(rows, now);
  }

  async function markDelivered(rows: OutboxRecord[], at: Date): Promise<void> {
    state.confirmedUnmarked = confirmed.size;
    await store.markDelivered(rows.map((row) => row.seq), at.toISOString(), publisher.kind);
    for (const row of rows) confirmed.delete(row);
    state.confirmedUnmarked = confirmed.size;
    state.lastDeliveredAt = at.toISOString();
  }

  /** `batchOf`: the row stands for a batch of this many that failed with it (the queue unreachable). */
  async function handleFailure(row: OutboxRecord, error: Error, batchOf = 1): Promise<boolean> {
    const attempt = row.attempts + 1;
    state.lastError = error.message;
    const verdict = verdictOf(error, attempt, { maxAttempts, backoff });
    if (verdict.outcome === 'dead') {
      metrics?.publishes.inc({ publisher: publisher.kind, outcome: 'dead' });
      logger.error('event marked dead; an operator must requeue it', {
        eventId: row.eventId, type: row.eventType, attempt, error: error.message,
      });
      await store.markDead(row.seq, error.message, { publisher: publisher.kind });
      return true;
    }
    metrics?.publishes.inc({ publisher: publisher.kind, outcome: 'retry' });
    const delay = verdict.delayMs;
    logger.warn('publish failed; retrying in order', {
      eventId: row.eventId, type: row.eventType, ...(batchOf > 1 ? { events: batchOf } : {}), attempt, retryInMs: delay, error: error.message,
    });
    await store.markRetry(row.seq, error.message, Date.now() + delay, { publisher: publisher.kind });
    return false;
  }

  const loop = (async () => {
    while (!signal.stopped) {
      if (signal.woken && coalesceMs > 0 && !draining) await pause(coalesceMs);
      signal.reset();
      let wait: number | null;
      try {
        wait = await pass();
        failedPasses = 0;
        state.storeError = null;
      } catch (error) {
        // The store is down or refuses the delivered mark: keep the backlog where it is and try
        // again after a growing pause; never exit on it, never spin on it.
        failedPasses += 1;
        wait = backoffDelay(failedPasses, backoff);
        headDueAt = Date.now() + wait;
        state.storeError = (error as Error).message;
        logger.warn('relay pass failed; retrying', {
          attempt: failedPasses, retryInMs: wait, confirmedUnmarked: confirmed.size, error: (error as Error).message,
        });
      }
      if (draining && (wait === null || state.lastError !== null || state.storeError !== null)) break;
      if (wait !== 0) await signal.sleep(wait ?? pollIntervalMs);
      // Back to back, passes on SQLite may never leave the microtask queue: let waiting I/O in first.
      else await nextTurn();
    }
    state.running = false;
    state.holdsLock = false;
  })();

  return {
    state: () => ({ ...state }),
    wake,
    async stop(drainMs = 0) {
      draining = true;
      const deadline = setTimeout(() => signal.stop(), drainMs);
      // Even a head in backoff is tried once more: shutdown drains what it can.
      signal.wakeNow();
      if (drainMs <= 0) signal.stop();
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
