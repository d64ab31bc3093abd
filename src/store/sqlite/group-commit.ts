import type { Database } from 'better-sqlite3';
import { StoreUnavailable } from '../store';

interface Pending<T> {
  work: () => T;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for a synchronous SQLite handle. Writes queued during one turn of the event
 * loop run in one transaction and share one fsync; each runs in its own savepoint so one
 * failing write does not undo its neighbours. A promise resolves only after COMMIT returned,
 * i.e. after the WAL was fsync'ed (synchronous=FULL), which is what lets us ack the gateway.
 */
export class GroupCommit {
  private queue: Pending<unknown>[] = [];
  private scheduled = false;
  private afterCommit: (() => void) | null = null;

  constructor(private readonly db: Database) {}

  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve, reject } as Pending<unknown>);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Called once after every successful commit (e.g. to wake the relay). */
  onCommit(listener: () => void): void {
    this.afterCommit = listener;
  }

  private flush(): void {
    const batch = this.queue;
    this.queue = [];
    this.scheduled = false;
    const results: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      this.db.transaction(() => {
        for (const item of batch) {
          try {
            results.push({ ok: true, value: this.db.transaction(item.work)() });
          } catch (error) {
            results.push({ ok: false, error: asUnavailable(error) });
          }
        }
      })();
    } catch (error) {
      const unavailable = asUnavailable(error);
      for (const item of batch) item.reject(unavailable);
      return;
    }
    batch.forEach((item, i) => {
      const result = results[i]!;
      if (result.ok) item.resolve(result.value);
      else item.reject(result.error);
    });
    this.afterCommit?.();
  }
}

function asUnavailable(error: unknown): StoreUnavailable {
  if (error instanceof StoreUnavailable) return error;
  return new StoreUnavailable(`sqlite write failed: ${(error as Error).message}`, { cause: error });
}
