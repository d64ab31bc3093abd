import type { Command } from 'commander';
import { publicRecord } from '../../commands/command-record';
import { cliConfig, globalOptions, masked, print, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { formatFields, formatTable } from '../table';
import { withCommands } from '../with-commands';

export function registerCommandsShow(commands: Command, io: CliIo): void {
  commands
    .command('show')
    .description('one command: its record and every attempt (when, what was sent, what came back)')
    .argument('<shopTransactionId>')
    .action(async (id: string, _options: unknown, command: Command) => {
      const global = globalOptions(command);
      const found = await withCommands(cliConfig(io, global), async (store) => {
        const stored = await store.getCommand(id);
        return stored ? { record: publicRecord(stored), attempts: await store.listAttempts(id) } : null;
      });
      if (!found) throw new CliFailure(`no command ${id}; find keys with "commands list"`, EXIT.notFound);
      print(io, global, found, () => {
        const { request, response, ...fields } = found.record;
        return [
          formatFields(Object.entries(fields)),
          '',
          formatTable(
            ['#', 'OPERATION', 'STARTED', 'FINISHED', 'HTTP', 'RESCD', 'ERROR'],
            found.attempts.map((a) => [a.n, a.operation, a.startedAt, a.finishedAt ?? 'in flight (or died)', a.httpStatus, (a.response?.resCd as string) ?? null, a.error]),
          ),
          '',
          `request  ${JSON.stringify(masked(request))}`,
          `response ${JSON.stringify(masked(response))}`,
        ].join('\n');
      });
    });
}
