import type { NormalizedEvent } from '../../notifications/normalized-event';
import type { NotificationFact, OrderKey } from './ledger-facts';
import { minorUnits } from './minor-units';

/**
 * A notification as the ledger keeps it: ids, codes, amounts and times only. Card, account,
 * depositor and buyer fields stay in the inbox (and go with its retention); none is copied here.
 * A notification without an order number belongs to no order: `null`, said so, not guessed.
 */
export function notificationFact(event: NormalizedEvent): { order: OrderKey; fact: NotificationFact } | null {
  if (event.shopOrderNo === null) return null;
  const { data } = event;
  const fact: NotificationFact = {
    kind: 'notification',
    id: event.id,
    at: event.occurredAt ?? event.receivedAt,
    recordedAt: event.receivedAt,
    notiType: event.notiType,
    pgCno: event.pgCno,
    cancelPgCno: event.cancelPgCno,
    resCd: event.resultCode,
    statusCode: event.status?.code ?? (event.notiType === '40' ? text(data.escrowStatusCode) : null),
    amount: minorUnits(event.amount) ?? fallbackAmount(event),
    cancelAmount: minorUnits(data.cancelAmount),
    // The gateway names a cancel's remainder cancelRemainAmount (its remainAmount is a prepaid
    // balance); remainAmount is read only without it, for the event 20s this receiver's own
    // simulator and sandbox stored under that name, which a backfill or a redelivery still reads.
    remainAmount: minorUnits(data.cancelRemainAmount) ?? minorUnits(data.remainAmount),
    occurredAt: event.occurredAt,
    receivedAt: event.receivedAt,
    // Only when true: the facts of every real order stay exactly as they were stored before. Read from
    // the receipt's checked mark, never from the body, which any sender writes.
    ...(event.source.simulator === true && { simulator: true as const }),
  };
  // Kept only when the body has them, so every other fact stays as it was stored before they were read.
  const depositPgCno = text(data.depositPgCno);
  if (depositPgCno !== null) fact.depositPgCno = depositPgCno;
  const payMethod = text(data.payMethodTypeCode) ?? text(data.pay_type);
  if (payMethod !== null) fact.payMethod = payMethod;
  const products = event.basket.map((item) => item.productPgCno).filter((pgCno) => pgCno !== '');
  if (products.length > 0) fact.productPgCnos = products;
  return { order: { mallId: event.mallId, shopOrderNo: event.shopOrderNo }, fact };
}

/** Some events name their amount after what it is; read those only when `amount` is missing. */
function fallbackAmount(event: NormalizedEvent): number | null {
  // An escrow deposit may come as event 40 (ES04) alone, naming its amount as a deposit does.
  if (event.notiType === '30' || event.notiType === '40') return minorUnits(event.data.depositAmount);
  if (event.notiType === '50' || event.notiType === '51') return minorUnits(event.data.refundAmount);
  return null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}
