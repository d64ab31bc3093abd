import type { LedgerSettings } from '../ledger/ledger-settings';
import { typedDriver, type StoreDriver } from './driver';

export const COMMAND_KINDS = ['wallet-a.create', 'wallet-b.cancel', 'van.approve', 'van.cancel'] as const;
export type CommandKind = (typeof COMMAND_KINDS)[number];

export const COMMAND_STATES = [
  'pending',
  'succeeded',
  'failed',
  'approved',
  'declined',
  'net_cancelling',
  'net_cancelled',
  'net_cancel_failed',
] as const;
export type CommandState = (typeof COMMAND_STATES)[number];

/** States the service is still working on (resending, or net-cancelling an approval in doubt). */
export const WORKING_STATES: readonly CommandState[] = ['pending', 'net_cancelling'];

/** What the internal API answers with (SPEC 5.2). */
export interface CommandRecord {
  command: CommandKind;
  shopTransactionId: string;
  mallId: string;
  state: CommandState;
  attempts: number;
  request: Record<string, unknown>;
  response: Record<string, unknown> | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The record plus what the worker needs to schedule and lease it. */
export interface StoredCommand extends CommandRecord {
  /** sha256 of the caller's body: the same key with another body is a conflict (409). */
  bodyHash: string;
  /** Epoch ms at or after which the next attempt is due. */
  nextAttemptAt: number;
  /** Attempts spent when an operator last retried it: the attempt budget counts from there. */
  budgetStart: number;
  lockedBy: string | null;
  /** Epoch ms; a lease past it belongs to no one (its replica died). */
  lockedUntil: number | null;
}

/** One send to the gateway, as kept for an operator. */
export interface AttemptRecord {
  n: number;
  /** The gateway operation, e.g. van.approve or van.net-cancel. */
  operation: string;
  startedAt: string;
  /** Null while in flight, and for ever when the process died during it. */
  finishedAt: string | null;
  request: Record<string, unknown>;
  httpStatus: number | null;
  response: Record<string, unknown> | null;
  /** The answer's text when it was not the gateway's JSON. */
  answerText: string | null;
  error: string | null;
}

export interface NewCommand {
  kind: CommandKind;
  shopTransactionId: string;
  mallId: string;
  bodyHash: string;
  /** As it will be sent, with every derived field (cancelReqDate, msgAuthValue) fixed now. */
  request: Record<string, unknown>;
  state: CommandState;
  at: string;
  /** The creator holds the lease for its first attempt, so no worker sends it twice. */
  owner: string;
  leaseUntil: number;
}

export interface BeginAttempt {
  shopTransactionId: string;
  owner: string;
  operation: string;
  request: Record<string, unknown>;
  /** The state while this attempt is in flight (net_cancelling for a net-cancel). */
  state: CommandState;
  at: string;
  leaseUntil: number;
}

/** A non-notification event for the internal queue, written in the same transaction as the final state. */
export interface CommandEvent {
  id: string;
  type: 'wallet.cancel.succeeded' | 'wallet.cancel.failed' | 'van.net_cancel.failed';
  mallId: string;
  /** The payment it concerns when known ('' otherwise), so the operator can find the event by it. */
  pgCno: string;
  json: string;
  bodyHash: string;
}

export interface FinishAttempt {
  shopTransactionId: string;
  owner: string;
  n: number;
  at: string;
  httpStatus: number | null;
  response: Record<string, unknown> | null;
  answerText: string | null;
  error: string | null;
  state: CommandState;
  /** When the next attempt is due; ignored for a final state. */
  nextAttemptAt: number;
  event: CommandEvent | null;
}

/**
 * Which of the worker's lanes a due command is worked in: one per kind, so calls the gateway
 * holds in one service never delay another's. A working approval is only ever net-cancelled
 * (the worker never sends an approval), so the `van.approve` lane is the net-cancels;
 * undefined is every lane.
 */
export type CommandLane = CommandKind;

export interface CommandFilter {
  state?: CommandState;
  kind?: CommandKind;
  limit?: number;
}

/**
 * Commands as durable records. Every write resolves only once durable: a command is on disk
 * before its first byte is sent, and an attempt is marked begun before it is sent.
 */
export interface CommandStore {
  /** Inserts, or returns the existing command under that key (created: false) untouched. */
  createCommand(command: NewCommand): Promise<{ created: boolean; command: StoredCommand }>;
  getCommand(shopTransactionId: string): Promise<StoredCommand | null>;
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
  /** A failed command (or a failed net-cancel) worked again with a fresh attempt budget; false when it is neither. */
  retryFailed(shopTransactionId: string, now: number, at: string): Promise<boolean>;
  countByState(): Promise<Array<{ kind: CommandKind; state: CommandState; count: number }>>;
  /** Working commands created before `before` (ISO). */
  countWorkingSince(before: string): Promise<number>;
}

/** The CommandStore over either database's driver, beside the notification Store on the same driver. */
export function createCommandStore(driver: StoreDriver, ledger: LedgerSettings | null = null): CommandStore {
  const { write, read } = typedDriver(driver);
  return {
    createCommand: (command) => write('createCommand', command),
    getCommand: (id) => read('getCommand', id),
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
