import type { Command } from 'commander';
import { cliConfig, globalOptions, numericId, print, withStore, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../exit-codes';
import { diffFields, maskChange } from '../../operator/field-diff';
import { formatFields, formatTable } from '../table';

export function registerConflictsShow(conflicts: Command, io: CliIo): void {
  conflicts
    .command('show')
    .description('a conflicting redelivery beside the stored notification, field by field')
    .argument('<id>', 'conflict id', numericId('conflict'))
    .action(async (id: number, _options: unknown, command: Command) => {
      const global = globalOptions(command);
      const { conflict, stored } = await withStore(cliConfig(io, global), async (store) => {
        const found = await store.getConflict(id);
        if (!found) throw new CliFailure(`no conflict ${id}; find ids with "conflicts list"`, EXIT.notFound);
        return { conflict: found, stored: await store.getEvent(found.eventId) };
      });
      const changes = diffFields(stored?.event.data ?? {}, conflict.event.data);
      print(io, global, { conflict, stored: stored?.event ?? null, changes }, () => {
        const { rawBody, event, ...fields } = conflict;
        return [
          formatFields([
            ...Object.entries(fields),
            ['type', event.type],
            ['pgCno', event.pgCno],
            ['storedReceivedAt', stored?.receivedAt ?? null],
            ['rawBody', `${rawBody.length} bytes`],
          ]),
          '',
          changes.length === 0
            ? 'no field differs (only spacing or field order did)'
            : formatTable(
                ['FIELD', 'STORED', 'CONFLICTING'],
                changes.map(maskChange).map((c) => [c.field, display(c.stored), display(c.conflicting)]),
              ),
        ].join('\n');
      });
    });
}

function display(value: unknown): string | null {
  if (value === undefined) return '(absent)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
