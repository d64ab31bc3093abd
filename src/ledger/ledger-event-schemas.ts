import { z } from 'zod';
import { discrepancySchema } from '../api/schemas/ledger-schema';
import { ORDER_STATUSES } from './order-record';

const minor = z.int().meta({ description: "an integer in the currency's minor unit, as the gateway sends it", example: 30000 });
const at = z.string().meta({ description: 'the time of the change: the latest stored time of the inputs that made it (ISO)', example: '2026-11-21T03:00:00.000Z' });

/** The figures the ledger's events carry (SPEC 7.3's `order`). */
export const orderSummarySchema = z.object({
  mallId: z.string(),
  shopOrderNo: z.string(),
  status: z.enum(ORDER_STATUSES),
  approved: minor,
  cancelled: minor,
  remaining: minor,
  deposited: minor,
  currency: z.string().nullable().meta({ description: "the expectation's currency; null when nothing was expected" }),
  expected: minor.nullable().meta({ description: 'the amount expected; null when nothing was expected' }),
}).meta({ id: 'OrderSummary' });

export const discrepancyOpenedSchema = z.object({
  id: z.string(),
  type: z.literal('ledger.discrepancy'),
  at,
  discrepancy: discrepancySchema,
  order: orderSummarySchema,
}).meta({ id: 'LedgerDiscrepancyEvent', description: 'a discrepancy opened on an order' });

export const orderStatusChangedSchema = z.object({
  id: z.string(),
  type: z.literal('order.status_changed'),
  at,
  from: z.enum(ORDER_STATUSES).nullable().meta({ description: 'null for an order seen for the first time' }),
  to: z.enum(ORDER_STATUSES),
  order: orderSummarySchema,
}).meta({ id: 'OrderStatusChangedEvent', description: "an order's status changed" });

export const orderUpdatedSchema = z.object({
  id: z.string(),
  type: z.literal('order.updated'),
  at,
  order: orderSummarySchema,
}).meta({ id: 'OrderUpdatedEvent', description: "an order's figures changed and its status did not" });

export const ledgerEventSchema = z.discriminatedUnion('type', [discrepancyOpenedSchema, orderStatusChangedSchema, orderUpdatedSchema]);
