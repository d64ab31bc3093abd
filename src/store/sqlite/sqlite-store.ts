import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createStore } from '../create-store';
import type { StoreDriver } from '../driver';
import { procedureNamed, type WriteName } from '../procedures';
import { StoreUnavailable, type Store } from '../store';
import { commitBatch, type WriteRequest } from './commit-batch';
import { migrate } from './migrate';
import { runProcedure, StatementCache } from './run-procedure';

export function openSqliteStore(path: string): Store {
  return createStore(openSqliteDriver(path));
}

interface Pending extends WriteRequest {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export function openSqliteDriver(path: string): StoreDriver {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // WAL + synchronous=FULL: COMMIT returns only after the WAL is fsync'ed, so an ack is never ahead of the disk.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);

  const statements = new StatementCache(db);
  const listeners: Array<() => void> = [];
  let queue: Pending[] = [];
  let scheduled = false;

  // Writes queued during one turn of the event loop share one transaction and one fsync.
  const flush = () => {
    const batch = queue;
    queue = [];
    scheduled = false;
    const { outcomes, outboxChanged } = commitBatch(statements, batch);
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(new StoreUnavailable(`sqlite write failed: ${outcome.error}`));
    });
    if (outboxChanged) for (const listener of listeners) listener();
  };

  const write = (name: WriteName, args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      queue.push({ name, args, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });

  const read = async (name: string, args: unknown[]) => {
    try {
      return runProcedure(statements, procedureNamed(name)!(...args), { outboxChanged: false });
    } catch (error) {
      throw new StoreUnavailable(`sqlite read failed: ${(error as Error).message}`, { cause: error });
    }
  };

  return {
    kind: 'sqlite',
    write,
    read,
    holdsRelayLock: async () => true,
    ping: async () => {
      try {
        statements.get('SELECT 1').get();
      } catch (error) {
        throw new StoreUnavailable(`sqlite read failed: ${(error as Error).message}`, { cause: error });
      }
    },
    onNewEvents: (listener) => void listeners.push(listener),
    async close() {
      // Let writes already queued commit first: they may be acks in flight.
      if (scheduled) flush();
      if (db.open) db.close();
    },
  };
}
