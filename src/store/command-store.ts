import type { LedgerSettings } from '../config/ledger-settings';
import type { AttemptRecord, BeginAttempt, CancelCreation, CancelRefusal, RecordedCancel, CommandFilter, CommandKind, CommandLane, CommandState, FinishAttempt, NewCommand, StoredCommand } from './command-types';
import { typedDriver, type StoreDriver } from './driver';

/**
 * Commands as durable records. Every write resolves only once durable: a command is on disk
 * before its first byte is sent, and an attempt is marked begun before it is sent.
 */
export interface CommandStore {
  /** Inserts, or returns the existing command under that key (created: false) untouched. */
  createCommand(command: NewCommand): Promise<{ created: boolean; command: StoredCommand }>;
  /**
   * A cancel (wallet-b or VAN naming its pgCno) recorded only if it fits in what is left of its
   * payment, checked and recorded in one transaction; a known key returns the stored command.
   */
  createCancelCommand(command: NewCommand): Promise<CancelCreation>;
  /** The cancels recorded for a payment and not refused for good, oldest first: what is left of it counts them. */
  openCancels(pgCno: string): Promise<RecordedCancel[]>;
  getCommand(shopTransactionId: string): Promise<StoredCommand | null>;
  /** With tracing on: the trace context (JSON) of the request that created the command, or null. */
  traceContextOf?(shopTransactionId: string): Promise<string | null>;
  listCommands(filter: CommandFilter): Promise<StoredCommand[]>;
  listAttempts(shopTransactionId: string): Promise<AttemptRecord[]>;
  /** Records the attempt as begun; null (send nothing) when `owner` no longer holds the lease. */
  beginAttempt(attempt: BeginAttempt): Promise<number | null>;
  /** Records the answer or error, the new state, and releases the lease. */
  finishAttempt(finish: FinishAttempt): Promise<StoredCommand>;
  /** How many leaseDue would find now; a read, so polling an idle store writes nothing. */
  countDue(now: number, lane?: CommandLane): Promise<number>;
  /** Due working commands whose lease is free or expired, now leased to `owner` until `leaseUntil`. */
  leaseDue(owner: string, now: number, leaseUntil: number, limit: number, lane?: CommandLane): Promise<StoredCommand[]>;
  /** Frees every lease: a single SQLite file has one process, so a lease left at start is a dead process's. */
  releaseAllLeases(): Promise<number>;
  /**
   * A failed command (or a failed net-cancel) worked again with a fresh attempt budget; false when
   * it is neither; the refusal when it is a cancel that no longer fits in what is left of its payment.
   */
  retryFailed(shopTransactionId: string, now: number, at: string): Promise<boolean | CancelRefusal>;
  countByState(): Promise<Array<{ kind: CommandKind; state: CommandState; count: number }>>;
  /** Working commands created before `before` (ISO). */
  countWorkingSince(before: string): Promise<number>;
}

/** The CommandStore over either database's driver, beside the notification Store on the same driver. */
export function createCommandStore(driver: StoreDriver, ledger: LedgerSettings | null = null): CommandStore {
  const { write, read } = typedDriver(driver);
  return {
    createCommand: (command) => write('createCommand', command),
    createCancelCommand: (command) => write('createCancelCommand', command, ledger),
    openCancels: (pgCno) => read('openCancels', pgCno),
    getCommand: (id) => read('getCommand', id),
    traceContextOf: (id) => read('commandTraceContext', id),
    listCommands: (filter) => read('listCommands', filter),
    listAttempts: (id) => read('listCommandAttempts', id),
    beginAttempt: (attempt) => write('beginCommandAttempt', attempt),
    finishAttempt: (finish) => write('finishCommandAttempt', finish, ledger),
    countDue: (now, lane) => read('countDueCommands', now, lane),
    leaseDue: (owner, now, leaseUntil, limit, lane) => write('leaseDueCommands', owner, now, leaseUntil, limit, lane),
    releaseAllLeases: () => write('releaseCommandLeases'),
    retryFailed: (id, now, at) => write('retryFailedCommand', id, now, at),
    countByState: () => read('countCommandsByState'),
    countWorkingSince: (before) => read('countWorkingCommandsSince', before),
  };
}
