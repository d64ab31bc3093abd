import type { Command } from 'commander';
import { cliConfig, globalOptions, masked, print, withStore, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { eventListing } from '../event-listing';
import { formatFields, formatTable } from '../table';
import { maskFreeText } from '../../observability/mask';
import type { DeliveryAttempt } from '../../store/store';
import { kstTime } from '../../console/format';

export function registerEventsShow(events: Command, io: CliIo): void {
  events
    .command('show')
    .description('one event: relay state, every delivery attempt, source, and the normalized event')
    .argument('<id>', 'event id (evt_…)')
    .action(async (id: string, _options: unknown, command: Command) => {
      const global = globalOptions(command);
      const found = await withStore(cliConfig(io, global), async (store) => {
        const detail = await store.getEvent(id);
        return detail && { ...eventListing(detail), deliveryAttempts: await store.deliveryAttempts(id) };
      });
      if (!found) throw new CliFailure(`no event ${id}; find ids with "events list"`, EXIT.notFound);
      print(io, global, found, () => {
        const { event, rawBody, deliveryAttempts, ...row } = found;
        // Rows written before error answers were reduced to status and size may still quote a body.
        const lastError = row.lastError === null ? null : maskFreeText(row.lastError);
        return [
          formatFields([
            ...Object.entries({ ...row, lastError }),
            ['rawBody', `${rawBody.length} bytes`],
          ]),
          '',
          deliveryAttempts.length === 0 ? 'delivery attempts: none yet' : attemptsTable(deliveryAttempts),
          '',
          JSON.stringify(masked(event), null, 2),
        ].join('\n');
      });
    });
}

function attemptsTable(attempts: DeliveryAttempt[]): string {
  return formatTable(
    ['#', 'at', 'outcome', 'error'],
    attempts.map((a) => [a.attempt ?? '-', a.at, outcomeOf(a), a.error === null ? (a.prunedAt ? '(removed by retention)' : null) : maskFreeText(a.error)]),
  );
}

function outcomeOf(a: DeliveryAttempt): string {
  const via = a.publisher ? ` via ${a.publisher}` : '';
  if (a.outcome === 'retry') return `retry${via}${a.retryAt ? `, next at ${kstTime(a.retryAt)}` : ''}`;
  if (a.outcome === 'requeued') return `requeued${a.actor ? ` by ${a.actor}` : ''}`;
  return `${a.outcome}${via}`;
}
