import type { ReadName, Reads, ResultOf, WriteName, Writes } from './procedures';

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
  holdsRelayLock(): Promise<boolean>;
  /** Throws StoreUnavailable when an ack could not be committed now. */
  ping(): Promise<void>;
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
  };
}
