import type { OrderRecord, OrderStatus } from '../fold/order-record';
import { kstDay } from './kst-day';
import { summaryMethodOf } from './payment-method';

/** What the day's money counts, each on the KST day of its own event. */
export type BookingKind = 'payment' | 'cancel' | 'deposit' | 'deposit_cancel' | 'refund_failed' | 'refund_failed_unknown' | 'discrepancy_opened' | 'discrepancy_resolved';

/**
 * One order's share of one day's figure. `currency` is the expectation's, '' when the order has
 * none (the mall's default, LEDGER_DEFAULT_CURRENCY, is read when the summary is: changing it
 * needs no rebuild). `method` only for payments: the method the gateway reported, else the one the
 * shop expected, else 'unknown' (`summaryMethodOf`); '' otherwise.
 */
export interface Booking {
  day: string;
  currency: string;
  kind: BookingKind;
  method: string;
  /** Of an order the simulator made up (its record says `simulated`): summed apart from the real money. */
  simulated: boolean;
  count: number;
  amount: number;
}

/** Where an order counts in "orders by status at the day's end": from `day` on, until it changes. */
export interface StatusBooking {
  status: OrderStatus;
  currency: string;
  day: string;
}

/** The currency an order's bookings are kept under: '' stands for the mall's default. */
function bookingCurrency(record: Pick<OrderRecord, 'expected'>): string {
  return record.expected?.currency ?? '';
}

/**
 * The order's bookings, a pure function of its record: each payment, cancel (one per cancelPgCno,
 * a refund reported in both a 20 and a 50 once, as the record lists it), deposit, deposit
 * cancellation (at its 31's own time), failed refund (event 51) and discrepancy opening and
 * resolution, grouped by day, kind and method. An amount the gateway left unreadable counts 0, as
 * in the record's sums; a failed refund's unknown amount is also counted apart
 * (`refund_failed_unknown`), so the summary can say it is unknown. A payment stays on its day when a later day cancels it: the cancel books
 * on its own. A simulated order's bookings say so: a real notification later makes the order real,
 * its record loses the mark, and its bookings move from the simulated sums into the real ones.
 */
export function bookingsOf(record: OrderRecord): Booking[] {
  const currency = bookingCurrency(record);
  const simulated = record.simulated === true;
  const grouped = new Map<string, Booking>();
  const book = (at: string, kind: BookingKind, amount: number | null, how = '') => {
    const day = kstDay(at);
    const key = `${day}\u0000${kind}\u0000${how}`;
    const entry = grouped.get(key);
    if (entry) {
      entry.count += 1;
      entry.amount += amount ?? 0;
    } else grouped.set(key, { day, currency, kind, method: how, simulated, count: 1, amount: amount ?? 0 });
  };
  for (const p of record.payments) book(p.at, 'payment', p.amount, summaryMethodOf(p, record.expected));
  for (const c of record.cancels) book(c.at, 'cancel', c.amount);
  for (const d of record.deposits) {
    book(d.at, 'deposit', d.amount);
    if (d.cancelled) book(d.cancelledAt ?? d.at, 'deposit_cancel', d.amount);
  }
  for (const r of record.refundsFailed ?? []) {
    book(r.at, 'refund_failed', r.amount);
    // A failed refund whose amount cannot be known is counted as such, so no figure reads it as 0.
    if (r.amount === null) book(r.at, 'refund_failed_unknown', null);
  }
  for (const d of record.discrepancies) {
    book(d.openedAt, 'discrepancy_opened', null);
    if (d.resolvedAt !== null) book(d.resolvedAt, 'discrepancy_resolved', null);
  }
  return [...grouped.values()];
}

/**
 * The KST days on which the order has an event (a notification of any type, by its own time: the
 * `at` of its fact), each once. The day page lists an order on each: the record's figures do not
 * show every event's time (a 50 completing an earlier 20 books on the 20's day, an escrow 40 or a
 * failed notification books nothing), and an operator settling a day must find every order the
 * gateway spoke of that day. They are kept beside the bookings and never in the daily totals.
 */
export function eventDaysOf(times: readonly string[]): string[] {
  return [...new Set(times.map((at) => kstDay(at)))].sort();
}

/**
 * The day an order's status counts from. An order first seen counts from the day of the first time
 * its record shows, so it is in a status at the end of every day since it began. A change counts
 * from the day of the latest time the record shows (its events' own times, its discrepancies'
 * openings and resolutions), so a payment at 23:59 KST received after midnight is paid at the end
 * of the day it books on. The store books a change no earlier than the day the status it leaves
 * counted from (`summary-writes.ts`), which the records alone cannot tell (an order registered
 * today whose payment and cancel are dated yesterday), so an order is in one status at each day's
 * end and no day's count is negative. Statuses the ledger never wrote (two inputs applied in one batch)
 * are not in the history: the ledger keeps what it wrote, and its records the latest.
 */
export function statusBookingOf(record: OrderRecord, previous: OrderRecord | null): StatusBooking {
  const ms = previous === null ? Math.min(...recordTimes(record)) : Math.max(...recordTimes(record), ...recordTimes(previous));
  return { status: record.status, currency: bookingCurrency(record), day: kstDay(new Date(ms).toISOString()) };
}

/** The times a record shows, in ms: its events' own, its discrepancies'; `updatedAt` for one with none (an expectation alone). */
function recordTimes(record: OrderRecord): number[] {
  const times = [
    ...record.payments.map((p) => p.at), ...record.cancels.map((c) => c.at),
    ...record.deposits.flatMap((d) => (d.cancelledAt === undefined ? [d.at] : [d.at, d.cancelledAt])),
    ...(record.refundsFailed ?? []).map((r) => r.at),
    ...record.discrepancies.flatMap((d) => (d.resolvedAt === null ? [d.openedAt] : [d.openedAt, d.resolvedAt])),
  ];
  return (times.length === 0 ? [record.updatedAt] : times).map((t) => Date.parse(t));
}
