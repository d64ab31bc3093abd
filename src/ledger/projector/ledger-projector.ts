import { performance } from 'node:perf_hooks';
import type { ProjectedBatch } from '../sql/project-ledger';
import { recordBatchSpan } from '../../tracing/batch-span';
import { WakeSignal } from '../../wake-signal';
import type { Tracing } from '../../tracing/tracing';

export interface LedgerProjectorOptions {
  /** One batch in one transaction (the store's `projectLedger`). */
  project(limit: number, now: string): Promise<ProjectedBatch>;
  /** One projector at a time across replicas; a standby asks again at every poll and takes over when the holder dies. */
  holdsLock(): Promise<boolean>;
  /** Called after each commit that stored something the projector follows (notifications, inputs). */
  onNewEvents(listener: () => void): void;
  /** Most rows of each kind one batch applies: one commit for many under load, short enough not to hold SQLite's writer. */
  batch?: number;
  /** How long an idle projector waits when nothing wakes it (another replica's inputs; a standby's look at the lock). */
  pollMs?: number;
  /** How long it waits after a batch failed as a whole (the database is down). */
  retryMs?: number;
  now?: () => Date;
  /**
   * With tracing on, each batch that applied something (or failed) is a `ledger.project` span
   * linked to the POST spans of the notifications it applied; `project` is then expected to
   * answer their stored contexts (`traceContexts`). Null or absent: no span, no clock read.
   */
  tracing?: Tracing | null;
}

export interface LedgerProjectorState {
  running: boolean;
  /** This process holds the projector's lock (always on SQLite). */
  holdsLock: boolean;
  /** The last batch's failure as a whole, null once one committed. */
  lastError: string | null;
  batches: number;
}

export interface LedgerProjector {
  state(): LedgerProjectorState;
  /** Inputs were stored: look now. */
  wake(): void;
  /** Called with every committed batch (a read waiting for its writes listens here; the service logs errors). */
  onBatch(listener: (batch: ProjectedBatch) => void): void;
  /** Called when a batch failed as a whole (it is tried again from the same position). */
  onFailure(listener: (error: Error) => void): void;
  /** Lets the batch in flight commit, then stops. */
  stop(): Promise<void>;
}

export const PROJECTOR_BATCH = 256;
const PROJECTOR_POLL_MS = 500;

/**
 * The ledger's projector: follows the stored inputs behind the acks and applies them in
 * batches, each in one transaction with its position. Woken by every commit that stored something,
 * with a poll as the fallback; a full batch goes on at once, so batches grow with the backlog. A
 * batch that fails as a whole is retried from the same position (nothing was written).
 */
export function startLedgerProjector(options: LedgerProjectorOptions): LedgerProjector {
  const batch = options.batch ?? PROJECTOR_BATCH;
  const pollMs = options.pollMs ?? PROJECTOR_POLL_MS;
  const retryMs = options.retryMs ?? 1000;
  const now = options.now ?? (() => new Date());
  const tracing = options.tracing ?? null;
  const state: LedgerProjectorState = { running: true, holdsLock: false, lastError: null, batches: 0 };
  const listeners: Array<(batch: ProjectedBatch) => void> = [];
  const failureListeners: Array<(error: Error) => void> = [];
  const signal = new WakeSignal();
  const wake = () => signal.wake();
  const sleep = (ms: number) => signal.sleep(ms);
  options.onNewEvents(wake);

  const loop = (async () => {
    while (!signal.stopped) {
      signal.reset();
      state.holdsLock = await options.holdsLock();
      if (!state.holdsLock) {
        await sleep(pollMs);
        continue;
      }
      let more = false;
      const startTime = tracing ? performance.now() : 0;
      try {
        const done = await options.project(batch, now().toISOString());
        state.lastError = null;
        if (done.rows > 0) {
          state.batches += 1;
          // A batch that only went past rows (internal entries, inputs of no order) applied nothing: no span.
          if (tracing && (done.orders > 0 || done.errors.length > 0)) batchSpan(tracing, startTime, done);
          for (const listener of listeners) listener(done);
        }
        more = done.more;
      } catch (error) {
        state.lastError = (error as Error).message;
        if (tracing) batchSpan(tracing, startTime, null, error as Error);
        for (const listener of failureListeners) listener(error as Error);
        await sleep(retryMs);
        continue;
      }
      if (!more) await sleep(pollMs);
    }
  })();

  return {
    state: () => ({ ...state }),
    wake,
    onBatch: (listener) => void listeners.push(listener),
    onFailure: (listener) => void failureListeners.push(listener),
    async stop() {
      signal.stop();
      await loop;
      state.running = false;
    },
  };
}

/** The span of one batch, once it committed (or failed): its figures, and a link per notification applied. */
function batchSpan(tracing: Tracing, startTime: number, done: ProjectedBatch | null, error?: Error): void {
  recordBatchSpan(tracing, 'ledger.project', {
    startTime,
    endTime: performance.now(),
    storedContexts: done?.traceContexts ?? [],
    attributes: done
      ? { 'noti.ledger.rows': done.rows, 'noti.ledger.orders': done.orders, 'noti.ledger.errors': done.errors.length, 'noti.ledger.more': done.more }
      : {},
    ...(error ? { error } : {}),
  });
}
