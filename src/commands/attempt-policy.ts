import type { Operation } from '../gateway/operations';
import type { CommandState, StoredCommand } from './command-record';
import type { CommandEvent } from '../store/command-types';

/** How one kind of attempt turns the gateway's verdict into the command's next state. */
export interface AttemptPolicy {
  operation: Operation;
  /** The state while this attempt is in flight, when it differs from the command's. */
  inFlightState?: CommandState;
  onSuccess: CommandState;
  onFinal: CommandState;
  /** No usable answer and attempts left: resend after the back-off. */
  onUnknown: CommandState;
  /** No usable answer and the budget spent. */
  onExhausted: CommandState;
  /** Attempts this phase may spend, and how many it has spent before this one. */
  budget: number;
  spent: (command: StoredCommand) => number;
  /** Sent at once rather than after a back-off (a net-cancel must not wait). */
  immediate?: CommandState[];
  /** The event a final state sends to the internal queue, if any. */
  eventType?: (state: CommandState) => CommandEvent['type'] | null;
  /** The answer as the record keeps it. */
  shapeResponse?: (body: Record<string, unknown>) => Record<string, unknown>;
}

export const spentSinceBudget = (command: StoredCommand): number => command.attempts - command.budgetStart;
