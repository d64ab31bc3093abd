import { z } from 'zod';
import { COMMAND_STATES } from './command-record';

const commandState = z.enum(COMMAND_STATES);

/** The fields every gateway answer has; the rest of its JSON passes through unchanged. */
const answerFields = {
  resCd: z.string().meta({ description: "the gateway's result code: 0000 is success", example: '0000' }),
  resMsg: z.string().optional().meta({ example: '정상처리' }),
  resDetailMsg: z.string().optional().meta({ description: 'URL-decoded' }),
};

const gatewayAnswer = z
  .looseObject(answerFields)
  .meta({ id: 'GatewayAnswer', description: "the gateway's JSON answer as received; fields beyond these pass through" });

const tradeAnswer = z
  .looseObject({
    ...answerFields,
    mallId: z.string().optional(),
    shopTransactionId: z.string().optional().meta({ description: "the request's; an answer naming another is recorded as failed" }),
    paymentPageUrl: z
      .string()
      .optional()
      .meta({ description: 'with resCd 0000: the code URL of a native trade (GET …/qr.svg renders it) or the redirect URL of an mweb trade' }),
  })
  .meta({ id: 'TradeAnswer', description: "the gateway's trade-creation answer as received; fields beyond these pass through" });

const recordFields = {
  shopTransactionId: z.string().meta({ example: 'st-20261122-0001' }),
  mallId: z.string().meta({ example: 'T0001234' }),
  attempts: z.int().min(0).meta({ description: 'calls sent to the gateway so far' }),
  request: z.record(z.string(), z.unknown()).meta({ description: 'the body as last sent to the gateway' }),
  lastError: z.string().nullable().meta({ description: 'why the last attempt did not settle it', example: 'time-out after 30000 ms' }),
  createdAt: z.string().meta({ description: 'ISO 8601, UTC', example: '2026-11-22T01:02:03.456Z' }),
  updatedAt: z.string().meta({ description: 'ISO 8601, UTC', example: '2026-11-22T01:02:04.012Z' }),
};

/** pending while resending; then succeeded or failed. */
const settledStates = z.enum(['pending', 'succeeded', 'failed']);

const record = (id: string, command: string, state: z.ZodType, response: z.ZodType, description: string) =>
  z
    .object({ command: z.literal(command), ...recordFields, state, response: z.union([response, z.null()]).meta({ description: "the gateway's last JSON answer; null before any" }) })
    .meta({ id, description });

export const tradeRecordSchema = record('TradeRecord', 'wallet-a.create', settledStates, tradeAnswer, 'a wallet-a trade');
export const walletCancelRecordSchema = record('WalletCancellationRecord', 'wallet-b.cancel', settledStates, gatewayAnswer, 'a wallet-b cancellation');
export const vanApprovalRecordSchema = record(
  'VanApprovalRecord',
  'van.approve',
  z.enum(['pending', 'approved', 'declined', 'net_cancelling', 'net_cancelled', 'net_cancel_failed']),
  gatewayAnswer,
  'a VAN approval: net_cancelling while its outcome is unknown, then net_cancelled or net_cancel_failed',
);
export const vanCancelRecordSchema = record('VanCancellationRecord', 'van.cancel', settledStates, gatewayAnswer, 'a VAN cancellation');

/** Any command, told apart by `command`. */
export const commandRecordSchema = z
  .discriminatedUnion('command', [tradeRecordSchema, walletCancelRecordSchema, vanApprovalRecordSchema, vanCancelRecordSchema])
  .meta({ id: 'CommandRecord' });

export const apiErrorSchema = z
  .object({
    error: z.string(),
    issues: z
      .array(z.object({ path: z.string().meta({ description: 'dotted path of the field; empty for the body itself' }), message: z.string() }))
      .optional()
      .meta({ description: 'with 400 for a body that failed validation: one per problem' }),
  })
  .meta({ id: 'Error' });

export const idempotencyConflictSchema = z
  .object({ error: z.string(), existing: commandRecordSchema })
  .meta({ id: 'IdempotencyConflict', description: 'the shopTransactionId names an earlier command with another body; nothing was sent' });

export const cancelExceedsPaymentSchema = z
  .object({
    error: z.string(),
    reason: z.literal('exceeds_remaining'),
    pgCno: z.string(),
    amount: z.number().int().nullable().meta({ description: 'what the cancel asked, in minor units; null for all that is left' }),
    left: z.number().int().meta({ description: 'what is left of the payment, in minor units, once the cancels already recorded (and not failed) are counted' }),
  })
  .meta({ id: 'CancelExceedsPayment', description: 'the cancel does not fit in what is left of its payment; nothing was recorded or sent' });

export const notRenderableSchema = z
  .object({ error: z.string(), state: commandState })
  .meta({ id: 'NotRenderable', description: 'only a succeeded native trade has a code URL' });

export const commandListQuery = z.object({
  state: commandState.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
