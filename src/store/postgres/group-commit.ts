import type { Pool, PoolClient } from 'pg';
import type { WriteName } from '../procedures';
import { writeBatch } from '../procedures/inbox-outbox/write-batch';
import { inTransaction } from './pool';
import { runProcedure, writeTransaction } from './run-procedure';

interface Pending {
  name: WriteName;
  args: unknown[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const MAX_BATCH = 256;

/**
 * Pipelined group commit for one replica: writes that arrive while a transaction is in flight
 * run together in the next one (one COMMIT, one WAL flush), as one `writeBatch`, so that the
 * notifications among them cost a few statements together rather than a few each. Every write
 * transaction takes the outbox-order lock first, so a transaction never holds an inbox key while
 * waiting for the lock: batches of several replicas serialise instead of deadlocking on each
 * other's keys (a batch's multi-row insert takes its keys in arrival order, which another
 * replica's batch need not share), and outbox seqs commit in the order they were drawn. If a
 * batch fails, its writes run again one by one so one bad row never fails its neighbours.
 */
export class PostgresGroupCommit {
  private queue: Pending[] = [];
  private running = false;

  constructor(
    private readonly pool: Pool,
    private readonly onOutboxChanged: () => void,
  ) {}

  write(name: WriteName, args: unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ name, args, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  /** Resolves once every write queued so far has been answered. */
  async flushed(): Promise<void> {
    while (this.running) await new Promise((resolve) => setImmediate(resolve));
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        if (!(await this.commit(batch))) {
          for (const item of batch) await this.commit([item]);
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** True when `batch` committed (or a lone write was answered with its error). */
  private async commit(batch: Pending[]): Promise<boolean> {
    const effects = { outboxChanged: false, orderLocked: true };
    const action = batch.length === 1 ? batch[0]!.name : 'batch';
    try {
      const values = await inTransaction(
        this.pool,
        action,
        (client: PoolClient) => runProcedure(client, action, writeBatch(batch), effects),
        writeTransaction(effects),
      );
      batch.forEach((item, i) => item.resolve(values[i]));
      if (effects.outboxChanged) this.onOutboxChanged();
      return true;
    } catch (error) {
      if (batch.length > 1) return false;
      batch[0]!.reject(error);
      return true;
    }
  }
}
