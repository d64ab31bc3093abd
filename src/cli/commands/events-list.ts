import { dayProblem } from '../../calendar-day';
import { Option, type Command } from 'commander';
import type { EventFilter, OutboxStatus } from '../../store/store';
import { cliConfig, globalOptions, print, positiveInt, withStore, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { eventListing } from '../event-listing';
import { formatTable } from '../table';

interface ListOptions {
  status?: OutboxStatus;
  type?: string;
  order?: string;
  since?: string;
  limit: number;
}

export function registerEventsList(events: Command, io: CliIo): void {
  events
    .command('list')
    .description('stored events, newest first')
    .addOption(new Option('--status <status>', 'relay status').choices(['pending', 'delivered', 'dead']))
    .option('--type <type>', 'event type (payment.approved) or notiType (10)')
    .option('--order <shopOrderNo>', "the merchant's order number")
    .option('--since <ISO time>', 'received at or after, e.g. 2026-11-21T00:00:00+09:00', isoTime)
    .option('--limit <n>', 'at most n rows', positiveInt('--limit'), 50)
    .action(async (options: ListOptions, command: Command) => {
      const global = globalOptions(command);
      const filter: EventFilter = {
        status: options.status,
        type: options.type,
        shopOrderNo: options.order,
        since: options.since,
        limit: options.limit,
      };
      const rows = (await withStore(cliConfig(io, global), (store) => store.listEvents(filter))).map(eventListing);
      print(io, global, rows, () =>
        rows.length === 0
          ? 'no events match'
          : formatTable(
              ['ID', 'TYPE', 'PG_CNO', 'ORDER', 'STATUS', 'TRIES', 'REDELIVERED', 'RECEIVED'],
              rows.map((r) => [r.id, `${r.notiType} ${r.type}`, r.pgCno, r.shopOrderNo, r.status, r.attempts, r.redeliveries, r.receivedAt]),
            ),
      );
    });
}

/** The store compares ISO strings in UTC, so any offset the operator types is normalised first. */
function isoTime(text: string): string {
  const ms = Date.parse(text);
  // Date.parse reads 2026-02-29 as 1 March: the day itself must exist.
  if (dayProblem(text.slice(0, 10)) !== null || Number.isNaN(ms)) {
    throw new CliFailure(`--since must be an ISO date or time like 2026-11-21T09:00:00+09:00, got "${text}"`, EXIT.usage);
  }
  return new Date(ms).toISOString();
}
