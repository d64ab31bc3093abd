import type { PaymentHit } from '../ledger-projector/ledger-store';
import { maskSensitive } from '../observability/mask';
import type { ConsoleDeps } from './console-deps';

/** The card number a notification's fields carry, masked as every page masks it (at most its first six and last four digits). */
export function maskedCardOf(data: Record<string, unknown>): string | null {
  const masked = maskSensitive(data) as Record<string, unknown>;
  for (const value of [masked.cardMaskNo, masked.cardNo]) if (typeof value === 'string' && value.trim() !== '') return value;
  return null;
}

/**
 * The last four digits of the card of each hit's payment, by the hit's event id, so that orders
 * of one amount can be told apart by what the caller reads off their card. A cancel's notification
 * may carry no card: its payment's (the order's payment of the same pgCno) is read instead. None
 * once retention removed the notification's fields, or when the masked number ends in no four digits.
 */
export async function searchCards(store: Pick<ConsoleDeps['store'], 'getEvent'>, hits: readonly PaymentHit[]): Promise<Record<string, string>> {
  const cards: Record<string, string> = {};
  const cardOf = async (eventId: string): Promise<string | null> => {
    const detail = await store.getEvent(eventId);
    const card = detail && detail.prunedAt === null ? maskedCardOf(detail.event.data) : null;
    return /(\d{4})\s*$/.exec(card ?? '')?.[1] ?? null;
  };
  await Promise.all(hits.map(async ({ order, payment }) => {
    if (payment === null || payment.eventId in cards) return;
    const paid = order.payments.find((p) => p.pgCno === payment.pgCno && p.eventId !== payment.eventId);
    const lastFour = (await cardOf(payment.eventId)) ?? (paid ? await cardOf(paid.eventId) : null);
    if (lastFour !== null) cards[payment.eventId] = lastFour;
  }));
  return cards;
}
