import type { AttemptPolicy } from './attempt-policy';
import type { CommandSettings } from './command-deps';

/**
 * The net-cancel (reqRtran) of an approval in doubt: the approval's own body, resent with the
 * back-off until the gateway answers. A refusal, or the budget spent, leaves an approval that
 * may stand at the gateway: net_cancel_failed goes to the queue and the log for a person.
 */
export const netCancelPolicy = (settings: CommandSettings): AttemptPolicy => ({
  operation: 'van.net-cancel',
  inFlightState: 'net_cancelling',
  onSuccess: 'net_cancelled',
  onFinal: 'net_cancel_failed',
  onUnknown: 'net_cancelling',
  onExhausted: 'net_cancel_failed',
  budget: settings.maxAttempts,
  // The approval itself was the first attempt of the command.
  spent: (command) => Math.max(0, command.attempts - command.budgetStart - 1),
  eventType: (state) => (state === 'net_cancel_failed' ? 'van.net_cancel.failed' : null),
});
