import type { OpenCancel } from '../ledger/fold/payment-left';

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

/** What the internal API answers with. */
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
  /** With tracing on: the creating request's trace context (JSON), for its resends' links. */
  traceContext?: string | null;
}

/** A cancel refused because it does not fit in what is left of its payment: nothing was recorded or sent. */
export interface CancelRefusal {
  pgCno: string;
  /** What it asked (minor units), null for all that is left. */
  amount: number | null;
  /** What is left of the payment once the cancels already recorded are counted. */
  left: number;
}

/** A cancel recorded for a payment and not refused for good: what it asks and the cancelPgCno its answer named. */
export interface RecordedCancel extends OpenCancel {
  shopTransactionId: string;
  state: CommandState;
}

/** A cancel recorded (or the one already stored under its key), or refused. */
export type CancelCreation = { created: boolean; command: StoredCommand } | { refusal: CancelRefusal };

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
