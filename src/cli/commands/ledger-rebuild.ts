import type { Command } from 'commander';
import { cliConfig, globalOptions, print, type CliIo } from '../cli-context';
import { describeGrace, graceOf, graceOption, withGrace } from '../grace-option';
import { pageThrough } from '../page-through';
import { whileBusy } from '../while-busy';
import { settledFirst, withLedger } from '../with-ledger';

const PAGE = 200;

/**
 * Every order recomputed from its stored facts, a page per transaction, so it runs beside a
 * serving receiver: pages sized by their time and paced, so the receiver's acks wait a page at most. On a consistent store no record changes; one that does is written (with its
 * events) and counted. The grace period is an input too: the command says which it used.
 */
export function registerLedgerRebuild(ledgerCommand: Command, io: CliIo): void {
  ledgerCommand
    .command('rebuild')
    .description('recompute every order record from the stored facts and report how many changed (none on a consistent store)')
    .addOption(graceOption())
    .action(async (options: { graceSeconds?: number }, command: Command) => {
      // Beside a serving receiver the rebuild is the background work: lowered before the store
      // opens, so its writer and reader threads start from this thread's priority too. Its pages
      // stay short whatever the priority: the pacer sizes them by the time they hold the lock.
      io.stepAside?.();
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      const grace = graceOf(options.graceSeconds, config, io);
      const counted = await withLedger(withGrace(config, grace), async (ledger) => {
        await settledFirst(ledger);
        const totals = { orders: 0, changed: 0 };
        await pageThrough((after) => whileBusy(() => ledger.rebuildPage(after, PAGE, new Date().toISOString(), { paced: true }), io.stderr), (page) => {
          totals.orders += page.orders;
          totals.changed += page.changed;
        });
        return totals;
      });
      const totals = { ...counted, graceSeconds: grace.seconds, graceFrom: grace.from };
      print(io, global, totals, () => `${describeGrace(grace)}\nrecomputed ${totals.orders} order(s); ${totals.changed} record(s) changed`);
    });
}
