import type { OrderRecord } from '../fold/order-record';
import { bookingsOf, statusBookingOf, type Booking } from './order-bookings';
import type { SummaryRow } from './summary-days';

/**
 * What one written record moves in the daily totals: a row of them (`SummaryRow`) for the order's
 * own mall, a booking kind's (`count`, `amount`) on a day, or (`kind` 'status', `method` the
 * status) a change in orders in that status at the day's end.
 */
export type SummaryDelta = Omit<SummaryRow, 'mallId'>;

/**
 * The order as the daily totals count it: its stored record, and the day its status counts from
 * ('' for a status counted before that day was kept: a change then books on its own day). null
 * when the totals do not count the order at all (projected before the summary existed, or
 * forgotten): its next record is added whole.
 */
export interface CountedOrder {
  record: OrderRecord;
  statusDay: string;
}

/** What a new record moves in the totals, and the day its status counts from after it. */
export interface SummaryMove {
  deltas: SummaryDelta[];
  statusDay: string;
}

/**
 * The daily totals' change when `record` replaces what they count of the order (`counted`): its
 * bookings less the counted record's, rows that net to nothing dropped, so an order whose history
 * grows by one input moves one or two rows, whatever its history. `previous` is the record stored
 * before, which dates a status change (`statusBookingOf`) whether or not the totals counted it.
 *
 * Orders by status at the day's end: a change books -1 on the status it leaves and +1 on the new
 * one, on its own day but never before the day the status it leaves counted from, so no -1 lands
 * before its +1 and no day's count goes below zero. That day is the order's own history (an order
 * registered today whose payment and cancel are dated yesterday), which no record shows: the store
 * keeps it in the order's header (`statusDay`), beside the record it belongs to.
 */
export function summaryMove(record: OrderRecord, previous: OrderRecord | null, counted: CountedOrder | null): SummaryMove {
  const deltas = new DeltaSum();
  for (const b of bookingsOf(record)) deltas.add(b, 1);
  if (counted !== null) for (const b of bookingsOf(counted.record)) deltas.add(b, -1);
  const now = statusBookingOf(record, previous);
  if (counted === null) {
    deltas.add(statusRow(now.day, now.currency, now.status, 1), 1);
    return { deltas: deltas.rows(), statusDay: now.day };
  }
  const was = { status: counted.record.status, currency: counted.record.expected?.currency ?? '' };
  if (was.status === now.status && was.currency === now.currency) return { deltas: deltas.rows(), statusDay: counted.statusDay };
  const day = counted.statusDay > now.day ? counted.statusDay : now.day;
  deltas.add(statusRow(day, was.currency, was.status, -1), 1);
  deltas.add(statusRow(day, now.currency, now.status, 1), 1);
  return { deltas: deltas.rows(), statusDay: day };
}

function statusRow(day: string, currency: string, status: string, count: number): SummaryDelta {
  return { day, currency, kind: 'status', method: status, simulated: false, count, amount: 0 };
}

/** Deltas summed by their key (day, currency, kind, method, simulated), each key once; those that net to nothing left out. */
class DeltaSum {
  private readonly byKey = new Map<string, SummaryDelta>();

  add(row: SummaryDelta | Booking, sign: 1 | -1): void {
    const key = `${row.day}\u0000${row.currency}\u0000${row.kind}\u0000${row.method}\u0000${row.simulated ? 1 : 0}`;
    const sum = this.byKey.get(key);
    if (sum) {
      sum.count += sign * row.count;
      sum.amount += sign * row.amount;
    } else this.byKey.set(key, { day: row.day, currency: row.currency, kind: row.kind, method: row.method, simulated: row.simulated, count: sign * row.count, amount: sign * row.amount });
  }

  rows(): SummaryDelta[] {
    return [...this.byKey.values()].filter((row) => row.count !== 0 || row.amount !== 0);
  }
}

/** A batch's moves summed per mall and key: one row per key, as one upsert of the totals takes them. */
export function batchDeltas(orders: ReadonlyArray<{ mallId: string; deltas: readonly SummaryDelta[] }>): Array<SummaryDelta & { mallId: string }> {
  const byMall = new Map<string, DeltaSum>();
  for (const { mallId, deltas } of orders) {
    let sum = byMall.get(mallId);
    if (!sum) byMall.set(mallId, (sum = new DeltaSum()));
    for (const row of deltas) sum.add(row, 1);
  }
  return [...byMall].flatMap(([mallId, sum]) => sum.rows().map((row) => ({ ...row, mallId })));
}
