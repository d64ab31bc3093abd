import type { Command } from 'commander';
import { cliConfig, globalOptions, print, type CliIo } from '../cli-context';
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
        let orders = 0;
        let changed = 0;
        let after: number | null = null;
        do {
          const page = await ledger.rebuildPage(after, PAGE, new Date().toISOString());
          orders += page.orders;
          changed += page.changed;
          after = page.next;
        } while (after !== null);
        return { orders, changed };
      });
      print(io, global, totals, () => `recomputed ${totals.orders} order(s); ${totals.changed} record(s) changed`);
    });
}
