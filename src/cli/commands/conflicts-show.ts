import type { Command } from 'commander';
import { cliConfig, globalOptions, numericId, print, withStore, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { compareConflict, type ConflictComparison } from '../../operator/conflict-comparison';
import { maskChange } from '../../operator/field-diff';
import { formatFields, formatTable } from '../table';
import { kstTime } from '../../console/format';

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
      const comparison = compareConflict(conflict, stored);
      // changes is null when a side was pruned by retention: an empty list would say nothing differs.
      const changes = comparison.differing;
      print(io, global, { conflict, stored: stored?.event ?? null, storedPrunedAt: comparison.storedPrunedAt, changes }, () => {
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
          ...prunedLines(comparison),
          comparisonTable(comparison),
        ].join('\n');
      });
    });
}

/** Said before the table: a pruned side's fields are gone, not absent, and cannot be compared. */
function prunedLines(comparison: ConflictComparison): string[] {
  const lines: string[] = [];
  if (comparison.storedPrunedAt) lines.push(`the stored body was pruned by retention on ${kstTime(comparison.storedPrunedAt)}; its fields cannot be compared`);
  if (comparison.conflictPrunedAt) lines.push(`the conflicting body was pruned by retention on ${kstTime(comparison.conflictPrunedAt)}`);
  return lines;
}

function comparisonTable(comparison: ConflictComparison): string {
  const { differing, fields, storedPrunedAt, conflictPrunedAt } = comparison;
  const table = (rows: Array<Array<string | null>>) => formatTable(['FIELD', 'STORED', 'CONFLICTING'], rows);
  if (differing === null) {
    if (fields.length === 0) return 'no field left to show';
    return table(fields.map(maskChange).map((c) => [c.field, display(c.stored, storedPrunedAt), display(c.conflicting, conflictPrunedAt)]));
  }
  if (differing.length === 0) return 'no field differs (only spacing or field order did)';
  return table(differing.map(maskChange).map((c) => [c.field, display(c.stored), display(c.conflicting)]));
}

function display(value: unknown, prunedAt: string | null = null): string | null {
  if (value === undefined) return prunedAt ? '(pruned)' : '(absent)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
