import type { SummaryDay } from '../../summary/summary-days';
import { all, get, run, type Param, type Procedure } from '../../../store/procedures/procedure';
import { recordAudit } from '../../../store/procedures/console-operators/record-audit';
import { dayOrders, liveSummary } from './daily-summary';
import { DAY_ORDER_LIMIT, dayOrderLine, type DayOrderLine } from '../../summary/day-close';

/** Who closes or reopens, and when: the audit row names the actor (the console's operator, the CLI's user). */
export interface DayCloseActor {
  at: string;
  actor: string;
}

/** A day's close: of one mall, or (`mallId` null) of every mall of the store. */
export interface ClosedDay {
  day: string;
  mallId: string | null;
  closedAt: string;
  closedBy: string;
}

export type CloseDayResult =
  | { outcome: 'closed'; close: ClosedDay; figures: SummaryDay[] }
  | { outcome: 'already_closed'; close: ClosedDay }
  /** Every mall asked for while some malls are closed alone: each is reopened, or closed as it is. */
  | { outcome: 'malls_closed'; malls: string[] };

export type ReopenDayResult =
  | { outcome: 'reopened' }
  | { outcome: 'not_closed' }
  /** Adjustments of the day were booked on days closed since: those days hold them, so this one stays closed until they reopen. */
  | { outcome: 'adjusted_on_closed_days'; days: string[] };

const subject = (day: string, mallId: string | null) => (mallId === null ? day : `${day} ${mallId}`);
const closedDay = (row: { day: string; mall_id: string; closed_at: string; closed_by: string }): ClosedDay =>
  ({ day: row.day, mallId: row.mall_id === '' ? null : row.mall_id, closedAt: row.closed_at, closedBy: row.closed_by });

/**
 * Closes a KST day (the caller checked the day is over): its figures as they stand are kept with
 * the close, in the transaction that records it and audits it. A ledger transaction: on
 * PostgreSQL it holds the ledger's lock, so no projector batch commits between the figures read
 * and the close; a batch after it books what it moves on the day as an adjustment.
 */
export function* closeSummaryDay(day: string, mallId: string | null, who: DayCloseActor, defaultCurrency: string): Procedure<CloseDayResult> {
  const existing = yield* all<{ day: string; mall_id: string; closed_at: string; closed_by: string }>('SELECT day, mall_id, closed_at, closed_by FROM summary_closes WHERE day = ? ORDER BY mall_id', day);
  const covering = existing.find((c) => c.mall_id === '' || c.mall_id === mallId);
  if (covering) return { outcome: 'already_closed', close: closedDay(covering) };
  if (mallId === null && existing.length > 0) return { outcome: 'malls_closed', malls: existing.map((c) => c.mall_id) };
  const figures = yield* liveSummary({ from: day, to: day, mallId }, defaultCurrency);
  const orders = (yield* dayOrders(day, mallId, DAY_ORDER_LIMIT)).map(dayOrderLine);
  yield* run('INSERT INTO summary_closes (day, mall_id, closed_at, closed_by, figures_json, orders_json) VALUES (?, ?, ?, ?, ?, ?)',
    day, mallId ?? '', who.at, who.actor, JSON.stringify(figures), JSON.stringify(orders));
  const nets = figures.map((d) => `${d.mallId} ${d.currency} ${d.netWithAdjustments ?? d.net}`).join(', ');
  yield* recordAudit({ at: who.at, actor: who.actor, action: 'closed day', subject: subject(day, mallId), detail: nets === '' ? 'nothing booked' : `net ${nets}` });
  return { outcome: 'closed', close: { day, mallId, closedAt: who.at, closedBy: who.actor }, figures };
}

/**
 * Reopens a closed day, audited: it shows its live sums again, the adjustments booked for it since
 * among them, so those adjustments leave the days they were booked on. Refused while one of them is
 * on a day closed since, whose kept figures hold it.
 */
export function* reopenSummaryDay(day: string, mallId: string | null, who: DayCloseActor): Procedure<ReopenDayResult> {
  const close = yield* get<{ day: string }>('SELECT day FROM summary_closes WHERE day = ? AND mall_id = ?', day, mallId ?? '');
  if (!close) return { outcome: 'not_closed' };
  const mall = mallId === null ? '' : ' AND a.mall_id = ?';
  const mallParam: Param[] = mallId === null ? [] : [mallId];
  const held = yield* all<{ day: string }>(`SELECT DISTINCT a.day FROM summary_adjustments a
    WHERE a.adjusts_day = ?${mall} AND EXISTS (SELECT 1 FROM summary_closes c WHERE c.day = a.day AND c.mall_id IN (a.mall_id, '')) ORDER BY a.day`, day, ...mallParam);
  if (held.length > 0) return { outcome: 'adjusted_on_closed_days', days: held.map((r) => r.day) };
  yield* run(`DELETE FROM summary_adjustments WHERE adjusts_day = ?${mallId === null ? '' : ' AND mall_id = ?'}`, day, ...mallParam);
  yield* run('DELETE FROM summary_closes WHERE day = ? AND mall_id = ?', day, mallId ?? '');
  yield* recordAudit({ at: who.at, actor: who.actor, action: 'reopened day', subject: subject(day, mallId), detail: '' });
  return { outcome: 'reopened' };
}

/** The closes of a range of days (one mall's and the store's, or all), for pages that mark them. */
export function* dayCloses(from: string, to: string, mallId: string | null): Procedure<ClosedDay[]> {
  const rows = yield* all<{ day: string; mall_id: string; closed_at: string; closed_by: string }>(`SELECT day, mall_id, closed_at, closed_by FROM summary_closes
    WHERE day >= ? AND day <= ?${mallId === null ? '' : " AND mall_id IN ('', ?)"} ORDER BY day, mall_id`, from, to, ...(mallId === null ? [] : [mallId]));
  return rows.map(closedDay);
}

/**
 * The day page's list of orders as the close that covers the page kept it (the mall's own close,
 * or the store's, narrowed to the mall); null when no close covers it (the list is live).
 */
export function* closedDayOrders(day: string, mallId: string | null): Procedure<DayOrderLine[] | null> {
  const rows = yield* all<{ mall_id: string; orders_json: string }>(`SELECT mall_id, orders_json FROM summary_closes WHERE day = ? AND mall_id IN ('', ?)`, day, mallId ?? '');
  const close = rows.find((r) => r.mall_id === (mallId ?? '')) ?? rows.find((r) => r.mall_id === '');
  if (!close) return null;
  const orders = JSON.parse(close.orders_json) as DayOrderLine[];
  return mallId === null ? orders : orders.filter((o) => o.mallId === mallId);
}
