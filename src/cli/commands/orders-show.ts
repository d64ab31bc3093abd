import type { Command } from 'commander';
import { cliConfig, globalOptions, print, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { orderText } from '../order-text';
import { withLedger } from '../with-ledger';

/** An order's payment record, found by its number (the mall only tells two apart). */
export function registerOrdersShow(orders: Command, io: CliIo): void {
  orders
    .command('show')
    .description("an order's payment record: expected, approved, cancelled, remaining, discrepancies")
    .argument('<shopOrderNo>')
    .option('--mall <mallId>', 'the mall, when several have an order with this number')
    .action(async (shopOrderNo: string, options: { mall?: string }, command: Command) => {
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      const records = await withLedger(config, async (ledger) => {
        if (options.mall !== undefined) {
          const record = await ledger.getOrder({ mallId: options.mall, shopOrderNo });
          return record ? [record] : [];
        }
        return ledger.findOrders(shopOrderNo);
      });
      if (records.length === 0) throw new CliFailure(`nothing is known of order ${JSON.stringify(shopOrderNo)}${options.mall ? ` of mall ${options.mall}` : ''}`, EXIT.notFound);
      if (records.length > 1) {
        throw new CliFailure(`order ${JSON.stringify(shopOrderNo)} exists in malls ${records.map((r) => r.mallId).join(', ')}: name one with --mall`, EXIT.usage);
      }
      print(io, global, records[0], () => orderText(records[0]!, config.LEDGER_DEFAULT_CURRENCY));
    });
}
