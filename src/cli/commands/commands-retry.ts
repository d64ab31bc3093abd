import type { Command } from 'commander';
import { cliConfig, globalOptions, print, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { withCommands } from '../with-commands';
import { CancelExceedsPayment } from '../../commands/cancel-exceeds-payment';

/**
 * An operator's deliberate second chance for a failed command (or a failed net-cancel): the same
 * request (same shopTransactionId, cancelReqDate and msgAuthValue) with a fresh attempt budget.
 * A running service's worker sends it at its next poll.
 */
export function registerCommandsRetry(commands: Command, io: CliIo): void {
  commands
    .command('retry')
    .description('work a failed command (or net_cancel_failed approval) again with a fresh attempt budget')
    .argument('<shopTransactionId>')
    .action(async (id: string, _options: unknown, command: Command) => {
      const global = globalOptions(command);
      const outcome = await withCommands(cliConfig(io, global), async (store) => {
        const now = new Date();
        const retried = await store.retryFailed(id, now.getTime(), now.toISOString());
        if (retried === true) return 'retried';
        if (retried !== false) return new CancelExceedsPayment(retried);
        return (await store.getCommand(id))?.state ?? null;
      });
      if (outcome instanceof CancelExceedsPayment) throw new CliFailure(`command ${id} stays failed: ${outcome.message}`, EXIT.usage);
      if (outcome === null) throw new CliFailure(`no command ${id}; find keys with "commands list"`, EXIT.notFound);
      if (outcome !== 'retried') {
        throw new CliFailure(`command ${id} is ${outcome}; only failed and net_cancel_failed commands can be retried`, EXIT.usage);
      }
      print(io, global, { retried: id }, () => `retrying ${id}; the running service's worker sends it at its next poll`);
    });
}
