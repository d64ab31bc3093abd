import type { Command } from 'commander';
import { cliConfig, globalOptions, masked, print, withStore, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../exit-codes';
import { formatFields } from '../table';
import { maskFreeText } from '../../observability/mask';

export function registerEventsShow(events: Command, io: CliIo): void {
  events
    .command('show')
    .description('one event: relay state, source, and the normalized event')
    .argument('<id>', 'event id (evt_…)')
    .action(async (id: string, _options: unknown, command: Command) => {
      const global = globalOptions(command);
      const detail = await withStore(cliConfig(io, global), (store) => store.getEvent(id));
      if (!detail) throw new CliFailure(`no event ${id}; find ids with "events list"`, EXIT.notFound);
      print(io, global, detail, () => {
        const { event, rawBody, ...row } = detail;
        // Rows written before error answers were reduced to status and size may still quote a body.
        const lastError = row.lastError === null ? null : maskFreeText(row.lastError);
        return [
          formatFields([
            ...Object.entries({ ...row, lastError }),
            ['rawBody', `${rawBody.length} bytes`],
          ]),
          '',
          JSON.stringify(masked(event), null, 2),
        ].join('\n');
      });
    });
}
