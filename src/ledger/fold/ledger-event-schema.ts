import { z } from 'zod';
import { discrepancySchema } from './discrepancy-schema';
import { ORDER_STATUSES } from './order-record';

/**
 * The ledger's events on the internal queue: the one source of their types (ledger-events.ts
 * builds them) and of the queue contract (docs/asyncapi.json).
 */
const minor = z.int().meta({ description: "an integer in the currency's minor unit" });
const orderStatus = z.enum(ORDER_STATUSES).meta({
  description: 'the first that applies: ledger_error, refund_failed, discrepancy, cancelled, partially_cancelled, underpaid / overpaid (the whole payments and deposits held add up to less / more than the expected amount, even once a discrepancy about it is resolved), paid (what is held matches the expected amount, or nothing was expected), awaiting_deposit, awaiting_payment',
});

const orderSummarySchema = z.object({
  mallId: z.string(),
  shopOrderNo: z.string(),
  status: orderStatus,
  approved: minor,
  cancelled: minor,
  remaining: minor,
  deposited: minor,
  currency: z.string().nullable().meta({ description: "the expectation's ISO 4217 code; null without an expectation", example: 'KRW' }),
  expected: minor.nullable().meta({ description: 'the amount the shop expects; null without an expectation' }),
  simulated: z.literal(true).optional().meta({ description: "present while every notification of the order came from this receiver's own simulator: no real money moved; absent once a real one arrives" }),
}).meta({ id: 'OrderSummary', description: "the order's figures after the change" });

const at = z.string().meta({ description: 'the time of the change: the latest of the order\'s inputs', example: '2026-11-21T03:00:00.000Z' });
const id = z.string().meta({ description: 'stable for this change: be idempotent on it', example: 'evt_0f1e2d3c4b5a69788796a5b4c3d2e1f0' });

export const discrepancyOpenedSchema = z.object({
  id,
  type: z.literal('ledger.discrepancy'),
  at,
  discrepancy: discrepancySchema,
  order: orderSummarySchema,
});

export const orderStatusChangedSchema = z.object({
  id,
  type: z.literal('order.status_changed'),
  at,
  from: orderStatus.nullable().meta({ description: 'null for an order seen for the first time' }),
  to: orderStatus,
  order: orderSummarySchema,
});

/** The figures changed, or a real notification showed a simulated order to be real, and the status did not. */
export const orderUpdatedSchema = z.object({
  id,
  type: z.literal('order.updated'),
  at,
  order: orderSummarySchema,
});

export type OrderSummary = z.infer<typeof orderSummarySchema>;
export type DiscrepancyOpened = z.infer<typeof discrepancyOpenedSchema>;
export type OrderStatusChanged = z.infer<typeof orderStatusChangedSchema>;
export type OrderUpdated = z.infer<typeof orderUpdatedSchema>;

export const ledgerEventSchema = z.discriminatedUnion('type', [discrepancyOpenedSchema, orderStatusChangedSchema, orderUpdatedSchema]);
