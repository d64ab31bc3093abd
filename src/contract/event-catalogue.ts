import { z } from 'zod';
import { vanNetCancelFailedSchema, walletCancelFailedSchema, walletCancelSucceededSchema } from '../commands/command-event-schema';
import { discrepancyOpenedSchema, orderStatusChangedSchema, orderUpdatedSchema } from '../ledger/fold/ledger-event-schema';
import { EVENT_TYPES, NOTI_TYPES, type NotiType } from '../notifications/event-types';
import { jsonDataSchema, unionPayDataSchema } from '../notifications/gateway-data-schema';
import { normalizedEventSchema } from '../notifications/normalized-event';

export interface EventKind {
  /** The event's `type`: routing key, subject suffix, Redis field. */
  type: string;
  summary: string;
  schema: z.ZodType;
  /** Where it comes from, for the readable contract. */
  origin: 'notification' | 'ledger' | 'command';
}

const NOTIFICATION_SUMMARIES: Record<NotiType, string> = {
  '10': 'a payment was approved (event 10)',
  '20': 'a payment was cancelled in full or in part, or its state changed (event 20)',
  '30': 'money arrived on a virtual account (event 30)',
  '31': 'a virtual-account deposit was cancelled (event 31)',
  '40': "an escrow purchase's delivery or confirmation state changed (event 40)",
  '50': 'a refund was paid out (event 50)',
  '51': "a refund could not be paid out to the buyer's account and must be repeated (event 51)",
  '70': 'a UnionPay payment was confirmed (event 70)',
};

/** A notification type's event: the normalized event with its own type, code and gateway fields. */
function notificationKind(notiType: NotiType): EventKind {
  const type = EVENT_TYPES[notiType];
  const schema = normalizedEventSchema.extend({
    type: z.literal(type),
    notiType: z.literal(notiType).meta({ description: "the gateway's event code" }),
    data: notiType === '70' ? unionPayDataSchema : jsonDataSchema,
  });
  return { type, summary: NOTIFICATION_SUMMARIES[notiType], schema, origin: 'notification' };
}

/** Every event type the relay publishes, in the order the readable contract lists them. */
export const EVENT_KINDS: readonly EventKind[] = [
  ...NOTI_TYPES.map(notificationKind),
  { type: 'wallet.cancel.succeeded', summary: 'a wallet-b cancellation the internal API sent was accepted by the gateway', schema: walletCancelSucceededSchema, origin: 'command' },
  { type: 'wallet.cancel.failed', summary: 'a wallet-b cancellation was refused for good, or gave up after its resends', schema: walletCancelFailedSchema, origin: 'command' },
  { type: 'van.net_cancel.failed', summary: 'a VAN approval whose outcome was unknown could not be net-cancelled: the card may be charged', schema: vanNetCancelFailedSchema, origin: 'command' },
  { type: 'order.status_changed', summary: "the ledger moved an order to another status", schema: orderStatusChangedSchema, origin: 'ledger' },
  { type: 'order.updated', summary: "an order's figures changed and its status did not", schema: orderUpdatedSchema, origin: 'ledger' },
  { type: 'ledger.discrepancy', summary: 'the ledger opened a discrepancy on an order', schema: discrepancyOpenedSchema, origin: 'ledger' },
];
