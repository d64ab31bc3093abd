import type { Command } from 'commander';
import { cliConfig, globalOptions, print, type CliIo } from '../cli-context';
import { pageThrough } from '../page-through';
import { withLedger } from '../with-ledger';

const PAGE = 200;

/**
 * SPEC 7.1: every order recomputed from its stored facts, a page per transaction under each
 * order's lock, so it runs beside a serving receiver. On a consistent store no record changes;
 * one that does is written (with its events) and counted.
 */
export function registerLedgerRebuild(ledgerCommand: Command, io: CliIo): void {
  ledgerCommand
    .command('rebuild')
    .description('recompute every order record from the stored facts and report how many changed (none on a consistent store)')
    .action(async (_options: unknown, command: Command) => {
      const global = globalOptions(command);
      const totals = await withLedger(cliConfig(io, global), async (ledger) => {
        const totals = { orders: 0, changed: 0 };
        await pageThrough((after) => ledger.rebuildPage(after, PAGE, new Date().toISOString()), (page) => {
          totals.orders += page.orders;
          totals.changed += page.changed;
        });
        return totals;
      });
      print(io, global, totals, () => `recomputed ${totals.orders} order(s); ${totals.changed} record(s) changed`);
    });
}
