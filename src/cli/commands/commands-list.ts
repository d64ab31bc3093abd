import { Option, type Command } from 'commander';
import { COMMAND_KINDS, COMMAND_STATES, type CommandKind, type CommandState } from '../../store/command-types';
import { publicRecord } from '../../commands/command-record';
import { cliConfig, globalOptions, positiveInt, print, type CliIo } from '../cli-context';
import { formatTable } from '../table';
import { withCommands } from '../with-commands';

export function registerCommandsList(commands: Command, io: CliIo): void {
  commands
    .command('list')
    .description('calls to the gateway, newest first')
    .addOption(new Option('--state <state>', 'only this state').choices([...COMMAND_STATES]))
    .addOption(new Option('--kind <kind>', 'only this kind').choices([...COMMAND_KINDS]))
    .option('--limit <n>', 'at most n rows', positiveInt('--limit'), 50)
    .action(async (options: { state?: CommandState; kind?: CommandKind; limit: number }, command: Command) => {
      const global = globalOptions(command);
      const rows = await withCommands(cliConfig(io, global), (store) => store.listCommands(options));
      print(io, global, rows.map(publicRecord), () =>
        rows.length === 0
          ? 'no commands match'
          : formatTable(
              ['SHOP_TRANSACTION_ID', 'COMMAND', 'MALL', 'STATE', 'TRIES', 'UPDATED', 'LAST_ERROR'],
              rows.map((r) => [r.shopTransactionId, r.command, r.mallId, r.state, r.attempts, r.updatedAt, r.lastError]),
            ),
      );
    });
}
