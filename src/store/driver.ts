import type { MessagePort } from 'node:worker_threads';
import type { LedgerReadName, LedgerWriteName, ReadName, Reads, ResultOf, WriteName, Writes } from './procedures';

/**
 * What differs per database, under the one store logic in ./procedures: how a procedure's steps
 * run (synchronously in a SQLite writer, asynchronously on a pg client), group commit, the relay
 * lock, wake-ups from other replicas, health.
 */
export interface StoreDriver {
  readonly kind: 'sqlite' | 'postgres';
  /** Runs a write procedure in a transaction; resolves only once its commit is durable. */
  write(name: WriteName, args: unknown[]): Promise<unknown>;
  /** Runs a read procedure without waiting behind writes; a busy database fails fast. */
  read(name: ReadName, args: unknown[]): Promise<unknown>;
  /**
   * Runs a write of the ledger's tables (`LEDGER_WRITES`): SQLite's one writer runs it like any
   * write; PostgreSQL in a transaction of its own that takes the outbox-order lock only to queue
   * events, never for its reads and fold, so it never holds the acks up.
   */
  ledgerWrite(name: LedgerWriteName, args: unknown[]): Promise<unknown>;
  /**
   * Runs the ledger projector's read and fold (`LedgerReadName`) on a thread and a connection of
   * its own: neither the acks' writer nor the event loop that answers the gateway carries it.
   */
  ledgerRead(name: LedgerReadName, args: unknown[]): Promise<unknown>;
  holdsRelayLock(): Promise<boolean>;
  /** One ledger projector at a time across replicas (PostgreSQL); SQLite's single writer needs none. */
  holdsProjectorLock(): Promise<boolean>;
  /** Throws StoreUnavailable when an ack could not be committed now. */
  ping(): Promise<void>;
  /**
   * SQLite: hands another thread (the gateway's listener) a port of its own to the one writer,
   * again after each restart of the writer. Absent on PostgreSQL, where that thread opens a pool.
   */
  writerPorts?(onPort: (port: MessagePort) => void): void;
  /** Called after each commit that added or revived outbox rows. */
  onNewEvents(listener: () => void): void;
  close(): Promise<void>;
}

/** The driver with each procedure's argument and result types, checked against the registry. */
export function typedDriver(driver: StoreDriver) {
  return {
    write: <K extends WriteName>(name: K, ...args: Parameters<Writes[K]>) =>
      driver.write(name, args) as Promise<ResultOf<Writes[K]>>,
    read: <K extends ReadName>(name: K, ...args: Parameters<Reads[K]>) =>
      driver.read(name, args) as Promise<ResultOf<Reads[K]>>,
    ledgerWrite: <K extends LedgerWriteName>(name: K, ...args: Parameters<Writes[K]>) =>
      driver.ledgerWrite(name, args) as Promise<ResultOf<Writes[K]>>,
    ledgerRead: <K extends LedgerReadName>(name: K, ...args: Parameters<Reads[K]>) =>
      driver.ledgerRead(name, args) as Promise<ResultOf<Reads[K]>>,
  };
}
