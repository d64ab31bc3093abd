import type { Command } from 'commander';
import { cliConfig, globalOptions, print, positiveInt, type CliIo } from '../cli-context';
import { currencyOrDefault, detailsText } from '../order-money';
import { formatTable } from '../table';
import { withLedger } from '../with-ledger';

/**
 * Open discrepancies (all with --all), in the order they opened; amounts in each order's currency,
 * which the list's one query reads with the discrepancies.
 */
export function registerDiscrepanciesList(discrepancies: Command, io: CliIo): void {
  discrepancies
    .command('list')
    .description('open payment discrepancies, oldest first (--all: resolved ones too)')
    .option('--all', 'resolved ones too')
    .option('--limit <n>', 'at most n rows', positiveInt('--limit'), 100)
    .action(async (options: { all?: boolean; limit: number }, command: Command) => {
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      const { discrepancies: rows, currencies } = await withLedger(config, (ledger) => ledger.listDiscrepancies({ open: !options.all, limit: options.limit }));
      print(io, global, rows, () =>
        rows.length === 0
          ? options.all ? 'no discrepancies' : 'no open discrepancies'
          : formatTable(
              ['ID', 'KIND', 'MALL', 'ORDER', 'OPENED', 'RESOLVED', 'BY', 'DETAILS'],
              rows.map((d) => [d.id, d.kind, d.mallId, d.shopOrderNo, d.openedAt, d.resolvedAt ?? '-', d.resolvedBy ?? '-', detailsText(d.details, currencyOrDefault(currencies[d.id], config.LEDGER_DEFAULT_CURRENCY))]),
            ),
      );
    });
}
