import { createStore } from '../create-store';
import type { StoreDriver } from '../driver';
import { procedureNamed } from '../procedures';
import type { Store } from '../store';
import { migrate } from './migrate';
import { missingDatabase } from './missing-database';
import { LOCK_KIND } from './advisory-locks';
import { connectionConfig, createPool, inTransaction, query, type PostgresOptions } from './pool';
import { PostgresGroupCommit } from './group-commit';
import { RelayLock } from './relay-lock';
import { PROJECTOR_HEAP, ReaderClient } from '../sqlite/reader-client';
import { ledgerTransaction, runProcedure, type Effects } from './run-procedure';

export type { PostgresOptions } from './pool';

const PING_TIMEOUT_MS = 1000;

/**
 * The store for several replicas on one database. Dedup is the inbox's unique keys, so it holds
 * across processes; the relay runs only where the advisory relay lock is held (relay-lock.ts).
 * Opening applies pending migrations and fails with StoreUnavailable when the database is down.
 */
export async function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<Store> {
  return createStore(await openPostgresDriver(url, options));
}

// Loaded with import(), so pg loads only when PostgreSQL is used.
// ts-unused-exports:disable-next-line
export async function openPostgresDriver(url: string, options: PostgresOptions = {}): Promise<StoreDriver> {
  const onBackgroundError = options.onBackgroundError ?? (() => undefined);
  const pool = createPool(url, { ...options, onBackgroundError });
  try {
    await migrate(pool, { onMigration: options.onMigration });
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw missingDatabase(url, error) ?? error;
  }

  const listeners: Array<() => void> = [];
  const notifyNewEvents = () => {
    for (const listener of listeners) listener();
  };
  const writer = new PostgresGroupCommit(pool, notifyNewEvents);
  let probe: Promise<unknown> | null = null;
  const relayLock = new RelayLock(connectionConfig(url, options), notifyNewEvents, onBackgroundError);
  const projectorLock = new RelayLock(connectionConfig(url, options), () => undefined, onBackgroundError, LOCK_KIND.projector, false);
  let ledgerWrites = 0;
  const projectorReader = new ReaderClient(
    { url, options: { connectTimeoutMs: options.connectTimeoutMs, statementTimeoutMs: options.statementTimeoutMs } },
    '../postgres/ledger-compute-worker',
    PROJECTOR_HEAP,
  );

  return {
    kind: 'postgres',

    // READ COMMITTED; a write resolves after its batch's COMMIT returned, i.e. with the default
    // synchronous_commit=on after the WAL was flushed.
    write: (name, args) => writer.write(name, args),

    // Reads take no transaction: each statement sees its own snapshot, as before the driver split.
    read: (name, args) => runProcedure(pool, name, procedureNamed(name)!(...args), { outboxChanged: false }),

    async ledgerWrite(name, args) {
      const effects: Effects = { outboxChanged: false, orderLocked: false };
      ledgerWrites += 1;
      try {
        const value = await inTransaction(pool, name, (client) => runProcedure(client, name, procedureNamed(name)!(...args), effects), ledgerTransaction(effects));
        if (effects.outboxChanged) notifyNewEvents();
        return value;
      } finally {
        ledgerWrites -= 1;
      }
    },

    ledgerRead: (name, args) => projectorReader.read(name, args),

    holdsRelayLock: () => relayLock.holds(),
    holdsProjectorLock: () => projectorLock.holds(),
    async ping() {
      await query(pool, 'ping', 'SELECT 1', [], PING_TIMEOUT_MS);
      // Ready means an ack could commit now: a server that answers but cannot write (a standby
      // after a failover, default_transaction_read_only, a full disk) must fail readiness too.
      probe ??= writer.write('probeWrite', [new Date().toISOString()]).finally(() => (probe = null));
      await probe;
    },
    onNewEvents: (listener) => void listeners.push(listener),
    async close() {
      // Releasing the relay lock first lets another replica take over while this one drains its pool.
      await relayLock.close();
      await projectorLock.close();
      await writer.flushed();
      while (ledgerWrites > 0) await new Promise((resolve) => setTimeout(resolve, 5));
      await projectorReader.close();
      await pool.end();
    },
  };
}
