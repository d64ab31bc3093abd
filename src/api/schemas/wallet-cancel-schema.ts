import { z } from 'zod';
import { mallId, minorAmount, optionalShopTransactionId, text } from './field-rules';

const currency = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD').meta({ example: 'USD' });

/** What both kinds of cancellation carry besides their code and amount. */
const common = {
  mallId,
  pgCno: z.string().regex(/^[A-Za-z0-9]{1,20}$/, 'must be 1-20 letters or digits').meta({ description: 'the payment to cancel', example: '20261122000012345678' }),
  memo: text(100).optional(),
  regId: text(20).optional(),
  shopTransactionId: optionalShopTransactionId,
};

/**
 * POST /v1/wallet-b/cancellations, one shape per `reviseTypeCode`, so the document says that a
 * partial cancel (32) needs `amountInfo.totAmount` and a full one (40) needs no `amountInfo`. Strict: `cancelReqDate` and `msgAuthValue`
 * are the service's to set, so a caller sending them is told rather than silently overridden.
 */
export const walletCancelBody = z
  .discriminatedUnion(
    'reviseTypeCode',
    [
      z
        .strictObject({
          ...common,
          reviseTypeCode: z.literal('40').meta({ description: 'full cancel' }),
          // The gateway asks for amountInfo.totAmount on a partial cancel only: a full cancel takes
          // what remains, so it may come without amountInfo at all.
          amountInfo: z
            .strictObject({ currency, totAmount: minorAmount.optional().meta({ description: 'not needed: the whole remaining amount is cancelled' }) })
            .optional(),
        })
        .meta({ id: 'WalletFullCancellation', description: 'reviseTypeCode 40: cancels what remains of the payment' }),
      z
        .strictObject({
          ...common,
          reviseTypeCode: z.literal('32').meta({ description: 'partial cancel' }),
          amountInfo: z.strictObject({ currency, totAmount: minorAmount.meta({ description: 'the amount to cancel, in minor units (required for 32)' }) }),
        })
        .meta({ id: 'WalletPartialCancellation', description: 'reviseTypeCode 32: cancels amountInfo.totAmount' }),
    ],
    { error: 'must be 40 (full cancel) or 32 (partial cancel)' },
  )
  .meta({ id: 'WalletCancellation' });

export type WalletCancelBody = z.infer<typeof walletCancelBody>;
