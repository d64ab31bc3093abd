import type { Operation } from '../gateway/operations';

export type CommandKind = 'wallet-a.create' | 'wallet-b.cancel' | 'van.approve' | 'van.cancel';

export const COMMAND_KINDS: readonly CommandKind[] = ['wallet-a.create', 'wallet-b.cancel', 'van.approve', 'van.cancel'];

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

export const isFinal = (state: CommandState): boolean => !WORKING_STATES.includes(state);

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
  operation: Operation;
  startedAt: string;
  /** Null while in flight, and for ever when the process died during it. */
  finishedAt: string | null;
  request: Record<string, unknown>;
  httpStatus: number | null;
  response: Record<string, unknown> | null;
  error: string | null;
}

export function publicRecord(command: StoredCommand): CommandRecord {
  const { command: kind, shopTransactionId, mallId, state, attempts, request, response, lastError, createdAt, updatedAt } = command;
  return { command: kind, shopTransactionId, mallId, state, attempts, request, response, lastError, createdAt, updatedAt };
}
