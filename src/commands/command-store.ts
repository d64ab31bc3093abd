import type { AttemptRecord, CommandKind, CommandState, StoredCommand } from './command-record';
import type { Operation } from '../gateway/operations';

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
  operation: Operation;
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
  json: string;
}

export interface FinishAttempt {
  shopTransactionId: string;
  owner: string;
  n: number;
  at: string;
  httpStatus: number | null;
  response: Record<string, unknown> | null;
  error: string | null;
  state: CommandState;
  /** When the next attempt is due; ignored for a final state. */
  nextAttemptAt: number;
  event: CommandEvent | null;
}

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
  /** Due working commands whose lease is free or expired, now leased to `owner` until `leaseUntil`. */
  leaseDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<StoredCommand[]>;
  /** Frees every lease: a single SQLite file has one process, so a lease left at start is a dead process's. */
  releaseAllLeases(): Promise<number>;
  /** A failed command back to pending with a fresh attempt budget; false unless it was failed. */
  retryFailed(shopTransactionId: string, now: number, at: string): Promise<boolean>;
  countByState(): Promise<Array<{ kind: CommandKind; state: CommandState; count: number }>>;
  /** Working commands created before `before` (ISO). */
  countWorkingSince(before: string): Promise<number>;
}
