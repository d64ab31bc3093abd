import type { Command } from 'commander';
import { closeDayProblem } from '../../ledger/summary/day-close';
import { dayProblem } from '../../calendar-day';
import { cliActor } from '../cli-actor';
import { cliConfig, globalOptions, print, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { kstTime } from '../../console/format';
import { moneyText } from '../order-money';
import { withLedger } from '../with-ledger';

/**
 * `summary close <day>` and `summary reopen <day>`: a KST day's figures and exports fixed as they
 * stand, or shown live again; audited under the OS user. What arrives later for a closed day is
 * booked on the day it arrives, as an adjustment naming the closed day.
 */
export function registerSummaryClose(summary: Command, io: CliIo): void {
  summary
    .command('close')
    .description('close a day in Korea (once it is over): its figures and exports stay as they are now; what arrives later for it is booked on the day it arrives, as an adjustment (audited)')
    .argument('<yyyy-mm-dd>', 'the day (in Korea)')
    .option('--mall <mallId>', "one mall's day (default: the day of every mall)")
    .action(async (day: string, _options: unknown, command: Command) => {
      const options = mallOf(command);
      const problem = closeDayProblem(day, new Date());
      if (problem !== null) throw new CliFailure(problem, EXIT.usage);
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      const actor = cliActor(io);
      const result = await withLedger(config, (ledger) => ledger.closeDay(day, options.mall ?? null, { at: new Date().toISOString(), actor }, config.LEDGER_DEFAULT_CURRENCY));
      const whose = options.mall === undefined ? 'every mall' : options.mall;
      if (result.outcome === 'malls_closed') throw new CliFailure(`${day} is closed for ${result.malls.join(', ')} alone; reopen those (summary reopen ${day} --mall …) or close the others one by one`, EXIT.usage);
      print(io, global, result, () => {
        if (result.outcome === 'already_closed') return `${day} (${whose}) was already closed by ${result.close.closedBy} at ${kstTime(result.close.closedAt)}`;
        const nets = result.figures.map((d) => `${d.mallId} ${moneyText(d.netWithAdjustments ?? d.net, d.currency)}`);
        return `closed ${day} (${whose}): ${nets.length === 0 ? 'nothing booked' : `net ${nets.join(', ')}`}`;
      });
    });
  summary
    .command('reopen')
    .description('reopen a closed day (audited): it shows its live figures again, with what arrived for it since')
    .argument('<yyyy-mm-dd>', 'the day (in Korea)')
    .option('--mall <mallId>', "the mall the day was closed for (default: the close of every mall)")
    .action(async (day: string, _options: unknown, command: Command) => {
      const options = mallOf(command);
      const problem = dayProblem(day);
      if (problem !== null) throw new CliFailure(problem, EXIT.usage);
      const global = globalOptions(command);
      const actor = cliActor(io);
      const result = await withLedger(cliConfig(io, global), (ledger) => ledger.reopenDay(day, options.mall ?? null, { at: new Date().toISOString(), actor }));
      const whose = options.mall === undefined ? 'every mall' : options.mall;
      if (result.outcome === 'not_closed') throw new CliFailure(`${day} is not closed for ${whose}; see "summary --from ${day} --to ${day}"`, EXIT.notFound);
      if (result.outcome === 'adjusted_on_closed_days') throw new CliFailure(`${day} has adjustments booked on ${result.days.join(', ')}, closed since; reopen those first`, EXIT.usage);
      print(io, global, result, () => `reopened ${day} (${whose})`);
    });
}

/** `--mall` after the subcommand is `summary`'s own option too, which commander gives the parent: read from either. */
function mallOf(command: Command): { mall?: string } {
  return { mall: (command.optsWithGlobals() as { mall?: string }).mall };
}
