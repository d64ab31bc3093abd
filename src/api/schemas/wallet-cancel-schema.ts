import { z } from 'zod';
import { mallId, minorAmount, shopTransactionId, text } from './field-rules';

/**
 * POST /v1/wallet-b/cancellations. Strict: `cancelReqDate` and `msgAuthValue` are the
 * service's to set, so a caller sending them is told rather than silently overridden.
 */
export const walletCancelBody = z
  .strictObject({
    mallId,
    pgCno: z.string().regex(/^[A-Za-z0-9]{1,20}$/, 'must be 1-20 letters or digits').meta({ description: 'the payment to cancel', example: '20261122000012345678' }),
    reviseTypeCode: z.enum(['40', '32'], { error: 'must be 40 (full cancel) or 32 (partial cancel)' }),
    amountInfo: z.strictObject({
      currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD'),
      totAmount: minorAmount.optional().meta({ description: 'required for a partial cancel (32)' }),
    }),
    memo: text(100).optional(),
    regId: text(20).optional(),
    shopTransactionId: shopTransactionId.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.reviseTypeCode === '32' && body.amountInfo.totAmount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['amountInfo', 'totAmount'], message: 'is required for a partial cancel (reviseTypeCode 32)' });
    }
  })
  .meta({ id: 'WalletCancellation' });

export type WalletCancelBody = z.infer<typeof walletCancelBody>;
