import { dayProblem } from '../../calendar-day';
import { Option, type Command } from 'commander';
import { kstDayStart } from '../../console/format';
import { ORDER_STATUSES, type OrderStatus } from '../../ledger/fold/order-record';
import { cliConfig, globalOptions, numericId, positiveInt, print, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { moneyText, orderCurrency } from '../order-money';
import { formatTable } from '../table';
import { withLedger } from '../with-ledger';

interface ListOptions {
  status?: OrderStatus;
  from?: string;
  to?: string;
  limit: number;
  after?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The payment ledger's orders, the newest first, a page at a time; amounts in each order's currency. */
export function registerOrdersList(orders: Command, io: CliIo): void {
  orders
    .command('list')
    .description("orders in the payment ledger, newest first: status and figures (a page at a time; the next page's --after is printed)")
    .addOption(new Option('--status <status>', 'only orders in this status').choices([...ORDER_STATUSES]))
    .option('--from <yyyy-mm-dd>', 'only orders whose record last changed on or after this day (in Korea)', day('--from'))
    .option('--to <yyyy-mm-dd>', 'only orders whose record last changed on or before this day (in Korea)', day('--to'))
    .option('--limit <n>', 'at most n rows', positiveInt('--limit'), 50)
    .option('--after <n>', "the next page: the number the previous page's last line gave", numericId('page'))
    .action(async (options: ListOptions, command: Command) => {
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      if (options.from && options.to && options.from > options.to) throw new CliFailure('--from must be a day on or before --to', EXIT.usage);
      const page = await withLedger(config, (ledger) => ledger.listOrders({
        status: options.status,
        newestFirst: true,
        from: options.from && kstDayStart(options.from)!,
        to: options.to && new Date(Date.parse(kstDayStart(options.to)!) + DAY_MS).toISOString(),
        after: options.after,
        limit: options.limit,
      }));
      const rows = page.orders;
      print(io, global, { orders: rows, next: page.last }, () => {
        if (rows.length === 0) return options.after ? 'no more orders' : 'no orders match';
        const table = formatTable(
          ['ORDER', 'MALL', 'STATUS', 'EXPECTED', 'APPROVED', 'CANCELLED', 'REMAINING', 'UPDATED'],
          rows.map((r) => {
            const currency = orderCurrency(r, config.LEDGER_DEFAULT_CURRENCY);
            return [r.shopOrderNo, r.mallId, r.status, r.expected ? moneyText(r.expected.amount, currency) : '-',
              moneyText(r.approved, currency), moneyText(r.cancelled, currency), moneyText(r.remaining, currency), r.updatedAt];
          }),
        );
        return page.last === null ? table : `${table}\n\nmore: add --after ${page.last}`;
      });
    });
}

/** A day in Korea, checked as a real date: a typo is a usage error, never an empty list. */
function day(name: string) {
  return (text: string): string => {
    const problem = dayProblem(text);
    if (problem !== null) throw new CliFailure(`${name}: ${problem}`, EXIT.usage);
    return text;
  };
}
