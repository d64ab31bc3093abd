/**
 * The internal API's gateway commands: creation, leased attempts, retries and their reads. One
 * line per verb: under `commandsWrites` or `commandsReads` (see ../index.ts).
 */
import { beginCommandAttempt } from './begin-command-attempt';
import { commandTraceContext } from './command-trace-context';
import { countCommandsByState, countDueCommands, countWorkingCommandsSince } from './count-commands';
import { createCancelCommand } from './create-cancel-command';
import { createCommand } from './create-command';
import { finishCommandAttempt } from './finish-command-attempt';
import { getCommand } from './get-command';
import { leaseDueCommands } from './lease-due-commands';
import { listCommandAttempts } from './list-command-attempts';
import { listCommands } from './list-commands';
import { openCancels } from './payment-headroom';
import { releaseCommandLeases } from './release-command-leases';
import { retryFailedCommand } from './retry-failed-command';

export const commandsWrites = {
  createCommand,
  createCancelCommand,
  beginCommandAttempt,
  finishCommandAttempt,
  leaseDueCommands,
  releaseCommandLeases,
  retryFailedCommand,
} as const;

export const commandsReads = {
  getCommand,
  openCancels,
  commandTraceContext,
  listCommands,
  listCommandAttempts,
  countCommandsByState,
  countWorkingCommandsSince,
  countDueCommands,
} as const;
