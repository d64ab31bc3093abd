import type { Command } from 'commander';
import { cliConfig, globalOptions, print, positiveInt, withStore, type CliIo } from '../cli-context';
import { formatTable } from '../table';

export function registerRejectionsList(rejections: Command, io: CliIo): void {
  rejections
    .command('list')
    .description('refused bodies kept for an operator, newest first')
    .option('--limit <n>', 'at most n rows', positiveInt('--limit'), 50)
    .action(async (options: { limit: number }, command: Command) => {
      const global = globalOptions(command);
      const rows = await withStore(cliConfig(io, global), (store) => store.listRejections(options.limit));
      print(io, global, rows, () =>
        rows.length === 0
          ? 'no rejections'
          : formatTable(
              ['ID', 'RECEIVED', 'SOURCE', 'HTTP', 'CONTENT-TYPE', 'REPROCESSED AS', 'REASON'],
              rows.map((r) => [r.id, r.receivedAt, r.sourceIp, r.httpStatus, r.contentType, r.reprocessedEventId, truncate(r.reason, 100)]),
            ),
      );
    });
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
