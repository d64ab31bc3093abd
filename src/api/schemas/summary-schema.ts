import { z } from 'zod';
import { ORDER_STATUSES } from '../../ledger/fold/order-record';
import { MAX_OPERATOR_NAME_LENGTH } from '../../store/operator-name';
import { resolverNameRule } from './ledger-schema';

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
  settlement: z.object({ count: z.number().int(), gross: minor, fee: minor, feeVat: minor, payout: minor }).optional()
    .meta({ description: "the gateway's settlement statement for this day's transactions: their gross, fees, VAT on the fees and the payout expected for them (whatever day it is paid); in the mall's default currency" }),
  payouts: z.object({ count: z.number().int(), amount: minor, fromDays: z.array(z.object({ day: z.string().nullable(), count: z.number().int(), amount: minor })) }).optional()
    .meta({ description: 'what the settlement statement pays out on this day, and from which transaction days (null: the statement names none)' }),
  closed: z.object({ at: z.string(), by: z.string(), everyMall: z.boolean() }).optional()
    .meta({ description: 'the day is closed: every figure is as it was at the close (at, by whom; everyMall: closed for the whole store)' }),
  adjustedLater: z.array(z.object({ on: day('the KST day the adjustment was booked on'), net: minor })).optional()
    .meta({ description: "a closed day's money that arrived after its close, by the day it was booked on as an adjustment; not in this day's figures" }),
  adjustments: z.array(z.object({ adjusts: day('the closed day it adjusts'), ...moneyFigures })).optional()
    .meta({ description: 'money of closed days that arrived on this day: booked here, as lines of their own, not in the figures above' }),
  netWithAdjustments: minor.optional().meta({ description: 'net plus the adjustments booked on this day' }),
}).meta({ id: 'SummaryDay', description: "one KST day's money of one mall in one currency: the real orders' figures, the simulator's made-up orders apart in simulated" });

export const summarySchema = z.object({ days: z.array(summaryDaySchema) });

export const dayParams = z.object({ day: day('the KST day (YYYY-MM-DD)') });

export const dayCloseBody = z.strictObject({
  by: z.string().trim().min(1, 'by must not be empty').max(MAX_OPERATOR_NAME_LENGTH, `by is at most ${MAX_OPERATOR_NAME_LENGTH} characters`).superRefine(resolverNameRule)
    .meta({ description: 'who closes or reopens the day: the audit log names them', example: 'kim@shop.example' }),
  mallId: z.string().min(1).max(40).optional().meta({ description: "one mall's day; absent: the day of every mall this store holds" }),
}).meta({ id: 'DayClose' });

export const dayClosedSchema = z.object({
  day: z.string(), mallId: z.string().nullable(), closedAt: z.string(), closedBy: z.string(),
  days: z.array(summaryDaySchema).meta({ description: "the day's figures as the close keeps them" }),
}).meta({ id: 'ClosedDay' });
