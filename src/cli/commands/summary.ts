import type { Command } from 'commander';
import type { CountAmount, SummaryDay } from '../../ledger/summary/summary-days';
import { summaryRangeProblem } from '../../ledger/summary/summary-range';
import { cliConfig, globalOptions, print, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { moneyText } from '../order-money';
import { formatTable } from '../table';
import { withLedger } from '../with-ledger';
import { closeSections } from './summary-close-text';
import { registerSummaryClose } from './summary-close';

interface SummaryOptions {
  from: string;
  to: string;
  mall?: string;
}

/** `noti-receiver summary`: the day's money per KST day, mall and currency, as money. */
export function registerSummary(program: Command, io: CliIo): void {
  const summary = program
    .command('summary')
    .description("the day's money per day in Korea, mall and currency: payments, cancels and refunds, deposits and their cancellations, failed refunds, net, discrepancies, fees and payouts; closed days as they were closed")
    .option('--from <yyyy-mm-dd>', 'the first day (in Korea)')
    .option('--to <yyyy-mm-dd>', 'the last day (in Korea), included')
    .option('--mall <mallId>', "one mall's days (default: every mall)")
    .action(async (options: Partial<SummaryOptions>, command: Command) => {
      // Not required of commander: `summary close` and `summary reopen` take a day instead.
      if (options.from === undefined || options.to === undefined) throw new CliFailure("error: required options '--from <yyyy-mm-dd>' and '--to <yyyy-mm-dd>' (or: summary close|reopen <yyyy-mm-dd>)", EXIT.usage);
      // Before the store is named or opened: a typo is a usage error on one line, whatever the store.
      const { from, to } = options;
      const problem = summaryRangeProblem(from, to);
      if (problem !== null) throw new CliFailure(problem, EXIT.usage);
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      const days = await withLedger(config, (ledger) => ledger.dailySummary({ from, to, mallId: options.mall ?? null }, config.LEDGER_DEFAULT_CURRENCY));
      print(io, global, { days }, () => (days.length === 0 ? 'nothing booked in this range' : summaryText(days)));
    });
  registerSummaryClose(summary, io);
}

function summaryText(days: readonly SummaryDay[]): string {
  const money = (count: number, amount: number, currency: string) => (count === 0 ? '-' : `${count} × ${moneyText(amount, currency)}`);
  const table = formatTable(
    ['DAY', 'MALL', 'CUR', 'PAYMENTS', 'CANCELS', 'DEPOSITS', 'DEPOSIT CANCELS', 'NET', 'REFUNDS FAILED', 'DISCREPANCIES', 'ORDERS'],
    days.map((d) => [
      d.date, d.mallId, d.currency,
      money(d.payments.count, d.payments.amount, d.currency),
      money(d.cancels.count, d.cancels.amount, d.currency),
      money(d.deposits.count, d.deposits.amount, d.currency),
      money(d.depositCancels.count, d.depositCancels.amount, d.currency),
      moneyText(d.net, d.currency),
      failedMoney(d),
      `+${d.discrepancies.opened} / -${d.discrepancies.resolved}`,
      Object.entries(d.ordersByStatus).map(([status, n]) => `${status} ${n}`).join(', ') || '-',
    ]),
  );
  const methods = days.flatMap((d) => Object.entries(d.payments.byMethod).map(([method, m]) => `${d.date}  ${d.mallId}  ${method}: ${m.count} × ${moneyText(m.amount, d.currency)}`));
  const simulated = days.filter((d) => simulatedParts(d).length > 0)
    .map((d) => `${d.date}  ${d.mallId}  ${simulatedParts(d).map(([label, f]) => `${label} ${money(f.count, f.amount, d.currency)}`).join(', ')}, net ${moneyText(d.simulated.net, d.currency)}`);
  return [
    table,
    ...(methods.length === 0 ? [] : [`payments by method\n${methods.join('\n')}`]),
    // The simulator's orders moved no money: in none of the figures above, said apart so no one adds them in.
    ...(simulated.length === 0 ? [] : [`simulated orders (not in the totals)\n${simulated.join('\n')}`]),
    ...closeSections(days),
  ].join('\n\n');
}

/** The simulated orders' figures of a day that booked something. */
function simulatedParts(d: SummaryDay): Array<[string, CountAmount]> {
  const s = d.simulated;
  const parts: Array<[string, CountAmount]> = [['payments', s.payments], ['cancels', s.cancels], ['deposits', s.deposits], ['deposit cancels', s.depositCancels], ['refunds failed', s.refundsFailed]];
  return parts.filter(([, figure]) => figure.count > 0);
}

/** Failed refunds (51): one whose amount cannot be known says so, never `1 × ₩0`. */
function failedMoney(d: SummaryDay): string {
  const { count, amount, unknownCount } = d.refundsFailed;
  if (count === 0) return '-';
  if (unknownCount === 0) return `${count} × ${moneyText(amount, d.currency)}`;
  if (unknownCount === count) return `${count} × amount unknown`;
  return `${count} × ${moneyText(amount, d.currency)} + ${unknownCount} unknown`;
}
