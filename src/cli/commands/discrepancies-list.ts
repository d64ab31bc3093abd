import type { Command } from 'commander';
import { orderKeyText } from '../../store/procedures/ledger-orders';
import { cliConfig, globalOptions, print, positiveInt, type CliIo } from '../cli-context';
import { detailsText, orderCurrency } from '../order-money';
import { formatTable } from '../table';
import { withLedger } from '../with-ledger';

/** Open discrepancies (all with --all), in the order they opened; amounts in each order's currency. */
export function registerDiscrepanciesList(discrepancies: Command, io: CliIo): void {
  discrepancies
    .command('list')
    .description('open payment discrepancies, oldest first (--all: resolved ones too)')
    .option('--all', 'resolved ones too')
    .option('--limit <n>', 'at most n rows', positiveInt('--limit'), 100)
    .action(async (options: { all?: boolean; limit: number }, command: Command) => {
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      const { rows, currencies } = await withLedger(config, async (ledger) => {
        const page = await ledger.listDiscrepancies({ open: !options.all, limit: options.limit });
        const currencies = new Map<string, string>();
        for (const d of page.discrepancies) {
          const key = orderKeyText(d);
          if (!currencies.has(key)) currencies.set(key, orderCurrency(await ledger.getOrder(d), config.LEDGER_DEFAULT_CURRENCY));
        }
        return { rows: page.discrepancies, currencies };
      });
      print(io, global, rows, () =>
        rows.length === 0
          ? options.all ? 'no discrepancies' : 'no open discrepancies'
          : formatTable(
              ['ID', 'KIND', 'MALL', 'ORDER', 'OPENED', 'RESOLVED', 'BY', 'DETAILS'],
              rows.map((d) => [d.id, d.kind, d.mallId, d.shopOrderNo, d.openedAt, d.resolvedAt ?? '-', d.resolvedBy ?? '-', detailsText(d.details, currencies.get(orderKeyText(d))!)]),
            ),
      );
    });
}
