import { z } from 'zod';
import { EVENT_TYPES, NOTI_TYPES } from './event-types';

/**
 * What the merchant's internal queue receives for a notification. This schema is the one
 * source of the type the normalizer builds and of the queue contract (docs/asyncapi.json).
 */
const gatewayEnvironmentSchema = z.enum(['production', 'development', 'extra']);
export type GatewayEnvironment = z.infer<typeof gatewayEnvironmentSchema>;

const basketItemSchema = z.object({ productNo: z.string(), productPgCno: z.string(), sellerId: z.string() });
export type BasketItem = z.infer<typeof basketItemSchema>;

const time = (description: string, example: string) => z.string().meta({ description, example });

export const normalizedEventSchema = z.object({
  id: z.string().meta({ description: 'stable, derived from the dedup key: be idempotent on it', example: 'evt_0f1e2d3c4b5a69788796a5b4c3d2e1f0' }),
  type: z.enum(Object.values(EVENT_TYPES) as [EventTypeName, ...EventTypeName[]]),
  notiType: z.enum(NOTI_TYPES as [NotiTypeCode, ...NotiTypeCode[]]).meta({ description: "the gateway's event code" }),
  mallId: z.string(),
  pgCno: z.string().meta({ description: "the gateway's transaction number (for event 20, the original payment's)" }),
  shopOrderNo: z.string().nullable().meta({ description: "the shop's order number; null when the gateway sent it empty" }),
  cancelPgCno: z.string().nullable(),
  resultCode: z.string(),
  resultMessage: z.string(),
  status: z.object({ code: z.string(), message: z.string().nullable() }).nullable().meta({ description: 'statusCode/statusMessage; null when absent or empty' }),
  amount: z.int().nullable().meta({ description: "`amount` in the currency's minor unit; other amount fields stay in data" }),
  occurredAt: time("from the event's own date (Korean time); null when it has none", '2026-11-21T12:00:00+09:00').nullable(),
  receivedAt: time('when the receiver stored it (UTC)', '2026-11-21T03:00:00.123Z'),
  basket: z.array(basketItemSchema),
  source: z.object({
    ip: z.string(),
    environment: gatewayEnvironmentSchema,
    simulator: z.literal(true).optional().meta({ description: "present when this receiver's own simulator sent it (its signature checked on the raw body): no real money moved" }),
  }),
  data: z.record(z.string(), z.unknown()).meta({ description: 'every field as received, decoded' }),
});

type EventTypeName = (typeof EVENT_TYPES)[keyof typeof EVENT_TYPES];
type NotiTypeCode = keyof typeof EVENT_TYPES;

export type NormalizedEvent = z.infer<typeof normalizedEventSchema>;
