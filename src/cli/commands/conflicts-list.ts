import type { Command } from 'commander';
import { cliConfig, globalOptions, print, positiveInt, withStore, type CliIo } from '../cli-context';
import { diffFields } from '../../operator/field-diff';
import { formatTable } from '../table';

export function registerConflictsList(conflicts: Command, io: CliIo): void {
  conflicts
    .command('list')
    .description('redeliveries whose body differed from the stored notification, newest first')
    .option('--limit <n>', 'at most n rows', positiveInt('--limit'), 50)
    .action(async (options: { limit: number }, command: Command) => {
      const global = globalOptions(command);
      const rows = await withStore(cliConfig(io, global), async (store) => {
        const conflicts = await store.listConflicts(options.limit);
        return Promise.all(
          conflicts.map(async (conflict) => {
            const stored = await store.getEvent(conflict.eventId);
            const changedFields = stored ? diffFields(stored.event.data, conflict.event.data).map((c) => c.field) : [];
            return { ...conflict, changedFields };
          }),
        );
      });
      print(io, global, rows, () =>
        rows.length === 0
          ? 'no conflicts'
          : formatTable(
              ['ID', 'EVENT', 'TYPE', 'PG_CNO', 'RECEIVED', 'SOURCE', 'CHANGED FIELDS'],
              rows.map((r) => [r.id, r.eventId, r.event.type, r.event.pgCno, r.receivedAt, r.sourceIp, r.changedFields.join(',')]),
            ),
      );
    });
}
