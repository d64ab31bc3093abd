import { z } from 'zod';
import { ORDER_STATUSES } from '../../ledger/fold/order-record';

const day = (description: string) => z.string().meta({ description, example: '2026-11-22' });

export const summaryQuery = z.object({
  from: day('the first KST day (YYYY-MM-DD), included'),
  to: day('the last KST day (YYYY-MM-DD), included; at most 366 days after from'),
  mallId: z.string().min(1).max(40).optional().meta({ description: "one mall's days; absent: every mall this service serves" }),
});

const minor = z.number().int().meta({ description: "an amount in the currency's minor unit (KRW: won; USD: cents)" });
const countAmount = z.object({ count: z.number().int(), amount: minor });

const moneyFigures = {
  payments: countAmount.extend({ byMethod: z.record(z.string(), countAmount).meta({ description: "by the method the gateway reported (its payMethodTypeCode, a UnionPay form's pay_type: card 11 and UnionPay, transfer 21, vaccount 22, mobile 31, prepaid 50, wallet 60, other for any other code); where it reported none, the expectation's method (card, vaccount, wallet, other); unknown where neither says" }) })
    .meta({ description: 'approvals (events 10 and 70), each on the day of its own time' }),
  cancels: countAmount.meta({ description: 'cancels and refunds as the ledger counts them: one per cancelPgCno, a refund in both a 20 and a 50 once' }),
  deposits: countAmount.meta({ description: 'virtual-account deposits (event 30)' }),
  depositCancels: countAmount.meta({ description: 'deposits cancelled (event 31), on the day of the 31' }),
  refundsFailed: countAmount.extend({
    amount: minor.meta({ description: 'the sum of the amounts that are known (a 51 states none: the amount of the refund it follows)' }),
    unknownCount: z.number().int().meta({ description: 'how many of count have an amount that cannot be known (no refund before the 51 awaits its payout): not in amount, never read as 0' }),
  }).meta({ description: 'refunds the bank could not pay out (event 51), not in net' }),
  net: minor.meta({ description: 'payments + deposits − deposit cancellations − cancels and refunds' }),
};

const summaryDaySchema = z.object({
  date: day('the KST day'),
  mallId: z.string(),
  currency: z.string().meta({ description: "the orders' expected currency, else LEDGER_DEFAULT_CURRENCY; never a total across currencies", example: 'KRW' }),
  ...moneyFigures,
  simulated: z.object(moneyFigures).meta({
    id: 'SimulatedMoney',
    description: "the same figures for orders this receiver's own simulator made up (every notification signed by it): no real money moved, so they are in none of the figures above; a real notification makes the order real and moves its money there",
  }),
  discrepancies: z.object({ opened: z.number().int(), resolved: z.number().int() }).meta({ description: 'by openedAt / resolvedAt, of every order (simulated ones included: they are work, not money)' }),
  ordersByStatus: z.partialRecord(z.enum(ORDER_STATUSES), z.number().int()).meta({ description: "orders in each status at the day's end (statuses with none left out)" }),
}).meta({ id: 'SummaryDay', description: "one KST day's money of one mall in one currency: the real orders' figures, the simulator's made-up orders apart in simulated" });

export const summarySchema = z.object({ days: z.array(summaryDaySchema) });
