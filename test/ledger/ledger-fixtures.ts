import { cancellationFact } from '../../src/ledger/fold/cancellation-fact';
import { expectationFact, type ExpectationInput } from '../../src/ledger/fold/expectation-fact';
import type { CancellationFact, ExpectationFact, NotificationFact, OrderKey, RefusalFact, ResolutionFact } from '../../src/ledger/fold/ledger-facts';
import { notificationFact } from '../../src/ledger/fold/notification-fact';
import { refusalFact } from '../../src/ledger/fold/refusal-fact';
import { resolutionFact } from '../../src/ledger/fold/resolution-fact';
import { kstStamp } from '../../src/notifications/kst-date';
import { normalizeNotification } from '../../src/notifications/normalize';
import { validateNotification } from '../../src/notifications/schema';
import {
  approvalNotification,
  changeNotification,
  depositCancelNotification,
  depositNotification,
  escrowNotification,
  refundNotification,
  transferFailedNotification,
  unionPayFields,
} from '../../src/simulator/notification-builders';

export const ORDER: OrderKey = { mallId: 'T0001234', shopOrderNo: 'ORD-LEDGER-1' };

/** 2026-11-21 12:00 KST: every fixture time is minutes after it. */
export const BASE_MS = Date.UTC(2026, 10, 21, 3, 0, 0);
export const minute = (n: number): string => new Date(BASE_MS + n * 60_000).toISOString();

/** When it happened at the gateway (`at`, minutes) and when we stored it (`received`, minutes; default the same). */
export interface Timing {
  at?: number;
  received?: number;
}

/** A notification body through the real validation and normalization, then into the ledger. */
export function factOf(body: Record<string, string>, timing: Timing): NotificationFact {
  const valid = validateNotification(body, { mallIds: [] });
  if (!valid.ok) throw new Error(valid.reasons.join('; '));
  const receivedAt = minute(timing.received ?? timing.at ?? 0);
  const { event } = normalizeNotification(valid.value, { receivedAt, sourceIp: '203.233.72.150', environment: 'production' });
  const made = notificationFact(event);
  if (made === null) throw new Error('the notification names no order');
  return made.fact;
}

const gatewayStamp = (timing: Timing): string => kstStamp(new Date(BASE_MS + (timing.at ?? 0) * 60_000));
const order = { mallId: ORDER.mallId, shopOrderNo: ORDER.shopOrderNo };

export function approval(o: Timing & { pgCno: string; amount: number }): NotificationFact {
  return factOf(approvalNotification({ ...order, pgCno: o.pgCno, amount: String(o.amount), transactionDate: gatewayStamp(o) }), o);
}

export function unionPay(o: Timing & { pgCno: string; amount: number }): NotificationFact {
  // Event 70 carries no date of its own: its time is when we received it.
  return factOf(unionPayFields({ memb_id: ORDER.mallId, order_no: ORDER.shopOrderNo, cno: o.pgCno, amount: String(o.amount) }), { received: o.received ?? o.at });
}

export function partialCancel(o: Timing & { pgCno: string; cancelPgCno: string; cancelAmount: number; remainAmount?: number; statusCode?: string }): NotificationFact {
  const body: Record<string, string> = changeNotification({ ...order, pgCno: o.pgCno, cancelPgCno: o.cancelPgCno, cancelAmount: String(o.cancelAmount), amount: String(o.cancelAmount), cancelDate: gatewayStamp(o), statusCode: o.statusCode ?? 'TS06' });
  if (o.remainAmount === undefined) delete body.cancelRemainAmount;
  else body.cancelRemainAmount = String(o.remainAmount);
  return factOf(body, o);
}

export function deposit(o: Timing & { pgCno: string; amount: number }): NotificationFact {
  return factOf(depositNotification({ ...order, pgCno: o.pgCno, amount: String(o.amount), depositDate: gatewayStamp(o) }), o);
}

export function depositCancel(o: Timing & { pgCno: string; amount: number }): NotificationFact {
  return factOf(depositCancelNotification({ ...order, pgCno: o.pgCno, amount: String(o.amount), cancelDate: gatewayStamp(o) }), o);
}

export function escrow(o: Timing & { pgCno: string; statusCode: string; amount?: number }): NotificationFact {
  const amount = o.amount === undefined ? {} : { amount: String(o.amount) };
  return factOf(escrowNotification({ ...order, pgCno: o.pgCno, statusCode: o.statusCode, escrowChangeDate: gatewayStamp(o), ...amount }), o);
}

/** Event 50; without `amount` the body carries none (the gateway documents that it may not); `undated`: no refundDate. */
export function refund(o: Timing & { pgCno: string; amount?: number; cancelPgCno?: string; depositPgCno?: string; undated?: boolean }): NotificationFact {
  const body: Record<string, string> = refundNotification({ ...order, pgCno: o.pgCno, amount: String(o.amount), refundDate: gatewayStamp(o) });
  if (o.amount === undefined) delete body.amount;
  if (o.cancelPgCno !== undefined) body.cancelPgCno = o.cancelPgCno;
  if (o.depositPgCno !== undefined) body.depositPgCno = o.depositPgCno;
  if (o.undated) delete body.refundDate;
  return factOf(body, o);
}

/**
 * Event 51; without `amount` the body carries none, as the gateway's document has it (result code,
 * message, bank and account only); `undated`: no date of its own, so its time is when it was received.
 */
export function transferFailed(o: Timing & { pgCno: string; amount?: number; undated?: boolean; cancelPgCno?: string }): NotificationFact {
  const body: Record<string, string> = transferFailedNotification({ ...order, pgCno: o.pgCno, amount: String(o.amount), refundDate: gatewayStamp(o) });
  if (o.amount === undefined) delete body.amount;
  if (o.cancelPgCno !== undefined) body.cancelPgCno = o.cancelPgCno;
  if (o.undated) delete body.refundDate;
  return factOf(body, o);
}

/** A basket payment: `products` are its productPgCno<n>. */
export function basketApproval(o: Timing & { pgCno: string; amount: number; products: string[] }): NotificationFact {
  const basket: Record<string, string> = { basketUsed: 'Y', bkResCnt: String(o.products.length) };
  o.products.forEach((productPgCno, i) => Object.assign(basket, { [`productNo${i + 1}`]: `P-${i + 1}`, [`productPgCno${i + 1}`]: productPgCno, [`sellerId${i + 1}`]: `seller${i + 1}` }));
  return factOf(approvalNotification({ ...order, pgCno: o.pgCno, amount: String(o.amount), transactionDate: gatewayStamp(o), ...basket }), o);
}

/**
 * A notification refused as invalid, by its rejection's id: the same id is the same stored body at
 * the same time, so the body and time derive from it. Ids 1–8 name four (type, payment) pairs twice
 * over, as the gateway's retries of one refused notification do.
 */
export function refused(rejectionId: number): RefusalFact {
  const pgCno = rejectionId % 2 === 0 ? PG.card : PG.second;
  const body = rejectionId % 4 < 2 ? approvalNotification({ ...order, pgCno, amount: '30,000' }) : changeNotification({ ...order, pgCno, cancelPgCno: PG.cancel1, cancelAmount: '1,000' });
  const made = refusalFact(body, rejectionId, minute(rejectionId * 20));
  if (made === null) throw new Error('the refusal names no order');
  return made.fact;
}

export function expectation(o: Partial<ExpectationInput> & { received?: number } = {}): ExpectationFact {
  const input: ExpectationInput = { amount: o.amount ?? 30000, currency: o.currency ?? 'KRW', method: o.method ?? 'card', expiresAt: o.expiresAt ?? null };
  return expectationFact(ORDER, input, minute(o.received ?? 0));
}

export function walletCancellation(o: { shopTransactionId: string; pgCno: string; state: string; received: number }): CancellationFact {
  return cancellationFact(ORDER, o, minute(o.received));
}

export function resolution(discrepancyId: string, o: { by?: string; note?: string; received: number }): ResolutionFact {
  return resolutionFact(discrepancyId, { by: o.by ?? 'kim.operator', note: o.note ?? 'refunded the customer by phone' }, minute(o.received));
}

/** Realistic 20-digit PG transaction numbers. */
export const PG = {
  card: '26112112000000000001',
  second: '26112112000000000002',
  vaccount: '26112112000000000003',
  cancel1: '26112112000000000011',
  cancel2: '26112112000000000012',
  cancel3: '26112112000000000013',
  product1: '26112112000000000021',
  product2: '26112112000000000022',
  refund: '26112112000000000031',
} as const;
