import { kstStamp } from '../../src/notifications/kst-date';
import { normalizeNotification } from '../../src/notifications/normalize';
import { validateNotification } from '../../src/notifications/schema';
import {
  approvalNotification, changeNotification, depositCancelNotification, depositNotification, escrowNotification, refundNotification, transferFailedNotification,
} from '../../src/simulator/notification-builders';
import type { OrderRecord } from '../../src/ledger/fold/order-record';
import type { InboxEntry } from '../../src/store/store';
import { entryFor } from '../helpers/stored-events';

/** Midnight in Korea that starts 2026-11-22 (15:00 UTC the day before); story times are minutes from it. */
export const MIDNIGHT_MS = Date.UTC(2026, 10, 21, 15, 0, 0);
export const at = (minutes: number): Date => new Date(MIDNIGHT_MS + minutes * 60_000);

/**
 * A gateway body through the real validation and normalization, happening at `minutes` and received
 * a minute later; `simulator`: received with the simulator's checked mark, as the receipt says.
 */
export function received(body: Record<string, string>, minutes: number, simulator: boolean): InboxEntry {
  const valid = validateNotification(body, { mallIds: [] });
  if (!valid.ok) throw new Error(valid.reasons.join('; '));
  const { event } = normalizeNotification(valid.value, { receivedAt: at(minutes + 1).toISOString(), sourceIp: '203.233.72.150', environment: 'production', simulator });
  return entryFor(event);
}

export interface OrderRef {
  mallId: string;
  shopOrderNo: string;
}

const stamp = (minutes: number) => kstStamp(at(minutes));
/**
 * The gateway's notifications of a story, each received with the simulator's checked mark when
 * `simulator`. A payment's `code` is its payMethodTypeCode (null: none in the body; absent: the
 * builder's card, 11).
 */
export function notifications(simulator: boolean) {
  const entry = (body: Record<string, string>, minutes: number) => received(body, minutes, simulator);
  return {
    paid: (o: OrderRef, pgCno: string, amount: number, t: number, code?: string | null) => {
      const body: Record<string, string> = approvalNotification({ ...o, pgCno, amount: String(amount), transactionDate: stamp(t) });
      if (code === null) delete body.payMethodTypeCode;
      else if (code !== undefined) body.payMethodTypeCode = code;
      return entry(body, t);
    },
    cancelled: (o: OrderRef, pgCno: string, cancelPgCno: string, amount: number, t: number) => {
      const body: Record<string, string> = changeNotification({ ...o, pgCno, cancelPgCno, cancelAmount: String(amount), amount: String(amount), cancelDate: stamp(t) });
      delete body.cancelRemainAmount;
      return entry(body, t);
    },
    refunded: (o: OrderRef, pgCno: string, cancelPgCno: string, amount: number, t: number) =>
      entry(refundNotification({ ...o, pgCno, cancelPgCno, amount: String(amount), refundDate: stamp(t) }), t),
    deposited: (o: OrderRef, pgCno: string, amount: number, t: number) =>
      entry(depositNotification({ ...o, pgCno, amount: String(amount), depositDate: stamp(t) }), t),
    depositCancelled: (o: OrderRef, pgCno: string, amount: number, t: number) =>
      entry(depositCancelNotification({ ...o, pgCno, amount: String(amount), cancelDate: stamp(t) }), t),
    refundFailed: (o: OrderRef, pgCno: string, amount: number | null, t: number) => {
      // null: as the gateway's document has a 51, with no amount of its own.
      const body: Record<string, string> = transferFailedNotification({ ...o, pgCno, amount: String(amount), refundDate: stamp(t) });
      if (amount === null) delete body.amount;
      return entry(body, t);
    },
    escrow: (o: OrderRef, pgCno: string, statusCode: string, t: number) =>
      entry(escrowNotification({ ...o, pgCno, statusCode, escrowChangeDate: stamp(t) }), t),
  };
}

export const notify = notifications(false);

export const entry = (body: Record<string, string>, minutes: number): InboxEntry => received(body, minutes, false);

/** The KST day of a story minute, by the test's own arithmetic (minute 0 is midnight starting 2026-11-22). */
export function storyDay(minutes: number): string {
  return new Date(Date.UTC(2026, 10, 22) + Math.floor(minutes / 1440) * 86_400_000).toISOString().slice(0, 10);
}

interface Money {
  count: number;
  amount: number;
}

interface ExpectedMoney {
  payments: Money & { byMethod: Record<string, Money> };
  cancels: Money;
  deposits: Money;
  depositCancels: Money;
  refundsFailed: Money & { unknownCount: number };
  net: number;
}

/** A day's figures as the test computes them from the records, with its own rules and day arithmetic: the simulated orders' money apart. */
export interface ExpectedDay extends ExpectedMoney {
  simulated: ExpectedMoney;
  discrepancies: { opened: number; resolved: number };
}

/** The gateway's payMethodTypeCode values, as the test reads them. */
const GATEWAY_METHODS: Record<string, string> = { '11': 'card', '21': 'transfer', '22': 'vaccount', '31': 'mobile', '50': 'prepaid', '60': 'wallet' };

const noMoney = (): ExpectedMoney => ({
  payments: { count: 0, amount: 0, byMethod: {} }, cancels: { count: 0, amount: 0 }, deposits: { count: 0, amount: 0 }, depositCancels: { count: 0, amount: 0 },
  refundsFailed: { count: 0, amount: 0, unknownCount: 0 }, net: 0,
});

/** `date|mallId|currency` → the day's figures, summed over the order records directly (nothing of src/daily-summary). */
export function sumsOverRecords(records: readonly OrderRecord[], defaultCurrency: string): Map<string, ExpectedDay> {
  const days = new Map<string, ExpectedDay>();
  const dayOf = (iso: string) => new Date(new Date(iso).getTime() + 9 * 3600 * 1000).toISOString().slice(0, 10);
  for (const r of records) {
    const currency = r.expected ? r.expected.currency : defaultCurrency;
    const dayAt = (iso: string): ExpectedDay => {
      const key = `${dayOf(iso)}|${r.mallId}|${currency}`;
      let day = days.get(key);
      if (!day) {
        day = { ...noMoney(), simulated: noMoney(), discrepancies: { opened: 0, resolved: 0 } };
        days.set(key, day);
      }
      return day;
    };
    const of = (iso: string): ExpectedMoney => (r.simulated ? dayAt(iso).simulated : dayAt(iso));
    for (const p of r.payments) {
      const day = of(p.at);
      const method = p.method !== undefined ? GATEWAY_METHODS[p.method] ?? 'other' : r.expected ? r.expected.method : 'unknown';
      day.payments.count++;
      day.payments.amount += p.amount ?? 0;
      const m = (day.payments.byMethod[method] ??= { count: 0, amount: 0 });
      m.count++;
      m.amount += p.amount ?? 0;
      day.net += p.amount ?? 0;
    }
    for (const c of r.cancels) {
      const day = of(c.at);
      day.cancels.count++;
      day.cancels.amount += c.amount ?? 0;
      day.net -= c.amount ?? 0;
    }
    for (const d of r.deposits) {
      const day = of(d.at);
      day.deposits.count++;
      day.deposits.amount += d.amount ?? 0;
      day.net += d.amount ?? 0;
      if (d.cancelled) {
        const later = of(d.cancelledAt!);
        later.depositCancels.count++;
        later.depositCancels.amount += d.amount ?? 0;
        later.net -= d.amount ?? 0;
      }
    }
    for (const f of r.refundsFailed ?? []) {
      const day = of(f.at);
      day.refundsFailed.count++;
      day.refundsFailed.amount += f.amount ?? 0;
      if (f.amount === null) day.refundsFailed.unknownCount++;
    }
    for (const d of r.discrepancies) {
      dayAt(d.openedAt).discrepancies.opened++;
      if (d.resolvedAt) dayAt(d.resolvedAt).discrepancies.resolved++;
    }
  }
  return days;
}
