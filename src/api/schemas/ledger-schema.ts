import { z } from 'zod';
import { EXPECTATION_METHODS } from '../../ledger/fold/ledger-facts';
import { MAX_GATEWAY_AMOUNT } from '../../notifications/fields';
import { LEDGER_RESOLVER } from '../../ledger/fold/discrepancy-lifecycle';
import { discrepancySchema } from '../../ledger/fold/discrepancy-schema';
import { ORDER_STATUSES } from '../../ledger/fold/order-record';
import { MAX_OPERATOR_NAME_LENGTH, newOperatorNameProblem, reservedNameUse } from '../../store/operator-name';
import { BOOTSTRAP_OPERATOR } from '../../store/store';
import { text } from './field-rules';

const iso = (description: string) => z.string().meta({ description, example: '2026-11-21T03:00:00.000Z' });
const minor = z.int().meta({ description: "an integer in the currency's minor unit, as the gateway sends it", example: 30000 });

// Counted as a notification's length is (EUC-KR bytes): a number longer than that could never be matched.
const orderNumber = text(40);
export const orderParams = z.object({
  mallId: z.string().regex(/^[A-Za-z0-9]{1,8}$/, 'must be 1-8 letters or digits').meta({ example: 'T0001234' }),
  shopOrderNo: orderNumber.meta({ ...orderNumber.meta(), description: "the shop's order number, as in its notifications: at most 40 bytes in EUC-KR (a Korean character is 2 bytes)", example: 'ORD-1' }),
});

/** What the shop expects to be paid for an order the service does not create itself. */
export const expectationBody = z
  .strictObject({
    // No gateway amount field holds more than 12 digits: an expectation beyond could never be paid as asked.
    amount: z.int().min(1).max(MAX_GATEWAY_AMOUNT, `must be at most ${MAX_GATEWAY_AMOUNT}, what the gateway's 12-digit amount fields hold`)
      .meta({ description: "in the currency's minor unit; at most 12 digits, as the gateway's amount fields", example: 12000 }),
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as KRW').meta({ example: 'KRW' }),
    method: z.enum(EXPECTATION_METHODS),
    expiresAt: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time with its offset, or null' }).nullable()
      .meta({ description: 'a payment after this time is a payment_after_expiry; null: none', example: '2026-11-21T12:30:00+09:00' }),
  })
  .meta({ id: 'Expectation' });

const expectedSchema = z.object({
  amount: minor, currency: z.string(), method: z.enum(EXPECTATION_METHODS),
  source: z.enum(['expectation', 'wallet-a']), expiresAt: z.string().nullable(),
  setAt: z.string().optional().meta({ description: 'when the service stored the expectation (the PUT, or the wallet-a trade that succeeded); absent in records written before it was kept' }),
}).meta({ id: 'Expected' });

const at = iso("the event's own time, else when it was received");
export const orderRecordSchema = z.object({
  mallId: z.string(),
  shopOrderNo: z.string(),
  status: z.enum(ORDER_STATUSES),
  expected: expectedSchema.nullable(),
  approved: minor, cancelled: minor, remaining: minor, deposited: minor,
  payments: z.array(z.object({ pgCno: z.string(), amount: minor.nullable(), cancelled: z.boolean().meta({ description: 'its cancels took all of it' }),
    method: z.string().optional().meta({ description: "the gateway's payment method code its notification carried (payMethodTypeCode; a UnionPay form's pay_type), e.g. 11 card; absent when it named none", example: '11' }),
    eventId: z.string(), at })),
  cancels: z.array(z.object({ cancelPgCno: z.string().nullable(), pgCno: z.string(), amount: minor.nullable(), remainingAfter: minor, eventId: z.string(), at })),
  deposits: z.array(z.object({
    pgCno: z.string(), amount: minor.nullable(), cancelled: z.boolean(),
    cancelledAt: iso('only on a cancelled deposit: the time of the event 31 that cancelled it').optional(), eventId: z.string(), at,
  })),
  refundsFailed: z.array(z.object({ pgCno: z.string(), amount: minor.nullable(), eventId: z.string(), at }))
    .optional().meta({ description: 'present only when the order has an event 51: each refund the bank could not pay out, at its own time (not in the figures)' }),
  escrow: z.object({ pgCno: z.string(), statusCode: z.string().nullable(), eventId: z.string(), at }).nullable(),
  cancellationsRequested: z.array(z.object({ shopTransactionId: z.string(), pgCno: z.string(), state: z.string() })),
  events: z.array(z.string()).meta({ description: 'every notification of the order, by its time then id' }),
  discrepancies: z.array(discrepancySchema),
  updatedAt: iso('the latest of its inputs and its discrepancies'),
  simulated: z.literal(true).optional().meta({ description: "present while every notification of the order came from this receiver's own simulator (`npm run simulate`, each signed by it): no real money moved, and the discrepancy alert ignores such orders; absent once one real notification arrives" }),
  ledgerError: z.object({ error: z.string(), at: iso('when the ledger met it') }).optional()
    .meta({ description: 'only with status `ledger_error`: the input the ledger could not apply; `noti-receiver ledger rebuild` computes the order again' }),
}).meta({ id: 'OrderRecord', description: 'the order as the ledger computes it from its expectation, notifications and cancellations' });

/** A cursor is opaque: it says where the previous page ended. */
const cursor = z.string().max(400).optional().meta({ description: "the previous answer's `next`" });
const limit = z.coerce.number().int().min(1).max(500).default(100);

export const orderListQuery = z.object({ status: z.enum(ORDER_STATUSES).optional(), after: cursor, limit });
export const discrepancyListQuery = z.object({
  open: z.enum(['true', 'false']).default('true').meta({ description: 'true (default): open ones only; false: all' }),
  after: cursor,
  limit,
});

/**
 * The audit names whoever resolved a discrepancy by `by`, so it follows the rule for a new
 * operator's name: it prints as itself (no right-to-left override, escape sequence or invisible
 * filler), and reads as neither the ledger, which signs its own resolutions, nor `admin`.
 */
export function resolverNameRule(name: string, context: z.RefinementCtx): void {
  // Its length is the schema's own check, named in the OpenAPI document.
  if (name.length === 0 || name.length > MAX_OPERATOR_NAME_LENGTH) return;
  const reserved = reservedNameUse(name);
  const problem = reserved ? `${reserved}; name the person who resolved it` : newOperatorNameProblem(name);
  if (problem) context.addIssue({ code: 'custom', message: problem.replace(/^an operator name/, 'by') });
}

export const resolveBody = z.strictObject({
  note: z.string().trim().min(1, 'say what was done').max(2000),
  by: z.string().trim().min(1, 'by must not be empty').max(MAX_OPERATOR_NAME_LENGTH, `by is at most ${MAX_OPERATOR_NAME_LENGTH} characters`).superRefine(resolverNameRule).meta({
    description: `who resolved it: becomes resolvedBy. An operator name: printable, no control, bidi formatting or invisible characters (fillers, joiners, variation selectors), at most ${MAX_OPERATOR_NAME_LENGTH} characters; \`${LEDGER_RESOLVER}\` (the ledger's own resolutions) and \`${BOOTSTRAP_OPERATOR}\` are reserved, and so is any name that reads as one of them (another case, full-width letters, an invisible character added)`,
    example: 'kim@shop.example',
  }),
}).meta({ id: 'Resolution' });

export const listedDiscrepancySchema = discrepancySchema.extend({ mallId: z.string(), shopOrderNo: z.string() }).meta({ id: 'ListedDiscrepancy' });

export const expectationConflictSchema = z.object({
  error: z.string(),
  reason: z.enum(['wallet_trade_amount', 'already_paid']),
  amount: minor.meta({ description: 'the amount that stands' }),
  currency: z.string().meta({ description: 'the currency that stands', example: 'USD' }),
  expiresAt: z.string().nullable().optional().meta({ description: 'with `already_paid`: the expiry that stands' }),
}).meta({ id: 'ExpectationConflict' });
