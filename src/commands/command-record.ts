import { WORKING_STATES, type CommandRecord, type CommandState, type StoredCommand } from '../store/command-types';

export { COMMAND_KINDS, COMMAND_STATES } from '../store/command-types';
export type { AttemptRecord, CommandKind, CommandRecord, CommandState, StoredCommand } from '../store/command-types';

export const isFinal = (state: CommandState): boolean => !WORKING_STATES.includes(state);

export function publicRecord(command: StoredCommand): CommandRecord {
  const { command: kind, shopTransactionId, mallId, state, attempts, request, response, lastError, createdAt, updatedAt } = command;
  return { command: kind, shopTransactionId, mallId, state, attempts, request, response, lastError, createdAt, updatedAt };
}
