import type { Command } from 'commander';
import { cliConfig, globalOptions, print, type CliIo } from '../cli-context';
import { describeGrace, graceOf, graceOption, withGrace } from '../grace-option';
import { pageThrough } from '../page-through';
import { settledFirst, withLedger } from '../with-ledger';

const PAGE = 500;

/**
 * After upgrading from a release without the ledger (before migration 010): the notifications
 * stored then get their facts and their orders a record, a page of the inbox per transaction, so
 * it runs beside a serving receiver. Running it again changes nothing.
 */
export function registerLedgerBackfill(ledgerCommand: Command, io: CliIo): void {
  ledgerCommand
    .command('backfill')
    .description('give the notifications stored before the ledger existed their facts, and their orders a record (once, after upgrading)')
    .addOption(graceOption())
    .action(async (options: { graceSeconds?: number }, command: Command) => {
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      const grace = graceOf(options.graceSeconds, config, io);
      const counted = await withLedger(withGrace(config, grace), async (ledger) => {
        await settledFirst(ledger);
        const sums = { notifications: 0, facts: 0, changed: 0 };
        await pageThrough((after) => ledger.backfillPage(after, PAGE, new Date().toISOString()), (page) => {
          sums.notifications += page.notifications;
          sums.facts += page.facts;
          sums.changed += page.changed;
        });
        return sums;
      });
      const totals = { ...counted, graceSeconds: grace.seconds, graceFrom: grace.from };
      print(io, global, totals, () => `${describeGrace(grace)}\nread ${totals.notifications} stored notification(s), ${totals.facts} naming an order; ${totals.changed} order record(s) changed`);
    });
}
