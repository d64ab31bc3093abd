import { z } from 'zod';
import { httpUrl, mallId, minorAmount, optionalShopTransactionId, text } from './field-rules';

/** POST /v1/wallet-a/trades: the gateway's trade-creation fields; fields not named here pass through unchanged. */
export const tradeCreationBody = z
  .looseObject({
    mallId,
    shopTransactionId: optionalShopTransactionId,
    shopOrderNo: text(40),
    goodsName: z
      .string()
      .min(1)
      .max(80)
      .regex(/^[\x20-\x7E]+$/, 'must be English only (printable ASCII): the wallet shows it abroad')
      .meta({ description: 'printable ASCII, at most 80 bytes', example: 'Coffee beans 1kg' }),
    amountInfo: z.looseObject({
      totalAmount: minorAmount,
      currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD').default('USD'),
    }),
    tradeType: z.enum(['native', 'mweb']).optional().meta({ description: 'native: a code URL for a QR image; mweb: a redirect URL' }),
    notifyUrl: httpUrl(256).optional().meta({ description: 'defaults to PUBLIC_NOTIFY_URL' }),
    returnUrl: httpUrl(256).optional(),
  })
  .meta({ id: 'TradeCreation' });

export type TradeCreationBody = z.infer<typeof tradeCreationBody>;
