import { dayNumber, dayProblem } from '../../calendar-day';
import { emptySummaryDay } from './day-entries';
import { kstDay } from './kst-day';
import type { SummaryDay } from './summary-days';
import type { OrderRecord } from '../fold/order-record';

/** The most orders a day's page lists (a busy day's full list is an export's job); a close keeps as many. */
export const DAY_ORDER_LIMIT = 200;

/** An order as a day's page lists it: what a close keeps of it, so the closed day's list stays as it was. */
export type DayOrderLine = Pick<OrderRecord, 'mallId' | 'shopOrderNo' | 'status' | 'approved' | 'cancelled' | 'remaining' | 'deposited' | 'simulated'>
  & { expected: { currency: string } | null };

export function dayOrderLine(record: OrderRecord): DayOrderLine {
  const { mallId, shopOrderNo, status, approved, cancelled, remaining, deposited, simulated, expected } = record;
  return { mallId, shopOrderNo, status, approved, cancelled, remaining, deposited, ...(simulated ? { simulated } : {}), expected: expected ? { currency: expected.currency } : null };
}

/**
 * A closed KST day as the store keeps it: of one mall, or ('') of every mall of the store, with the
 * figures the day showed when it was closed, which it shows from then on.
 */
export interface StoredClose {
  day: string;
  mallId: string;
  closedAt: string;
  closedBy: string;
  figures: SummaryDay[];
}

/** The net a closed day's money moved by after its close, booked on `on` (the day it arrived). */
export interface LaterAdjustment {
  adjusts: string;
  on: string;
  mallId: string;
  currency: string;
  net: number;
}

/** How far back a day may be closed: the summary's own range, a year of days. */
const CLOSE_DAYS_BACK = 366;

export type CloseDayIssue =
  | { kind: 'notADay'; problem: string }
  | { kind: 'notOver'; day: string; today: string }
  | { kind: 'tooOld'; day: string; max: number };

/**
 * Why `day` cannot be closed at `now`, or null. A day is closed once it is over in Korea: today
 * still takes payments, and a close must fix figures that no longer grow by their own events.
 */
export function closeDayIssue(day: string, now: Date): CloseDayIssue | null {
  const problem = dayProblem(day);
  if (problem !== null) return { kind: 'notADay', problem };
  const today = kstDay(now.toISOString());
  if (day >= today) return { kind: 'notOver', day, today };
  if (dayNumber(today) - dayNumber(day) > CLOSE_DAYS_BACK) return { kind: 'tooOld', day, max: CLOSE_DAYS_BACK };
  return null;
}

/** The same in words, for the CLI and the API. */
export function closeDayProblem(day: string, now: Date): string | null {
  const issue = closeDayIssue(day, now);
  if (issue === null) return null;
  if (issue.kind === 'notADay') return issue.problem;
  if (issue.kind === 'notOver') return `${issue.day} is not over in Korea yet (today is ${issue.today}): a day is closed once it has ended`;
  return `${issue.day} is more than ${issue.max} days ago: a day that old is not closed here`;
}

const covers = (close: StoredClose, date: string, mallId: string) => close.day === date && (close.mallId === '' || close.mallId === mallId);

/**
 * The summary as its closed days show it: a closed day's lines are the ones kept at its close
 * (of `mallId` alone when the range names one), whatever its live sums say since, each marked
 * closed and with what moved it later and on which day. A mall or currency that had nothing on the
 * day when it closed and was moved later gets a line of its own, showing only that.
 */
export function closedView(live: readonly SummaryDay[], closes: readonly StoredClose[], later: readonly LaterAdjustment[], mallId: string | null): SummaryDay[] {
  if (closes.length === 0) return [...live];
  const open = live.filter((d) => !closes.some((c) => covers(c, d.date, d.mallId)));
  const kept = new Map<string, SummaryDay>();
  const keyOf = (date: string, mall: string, currency: string) => `${date}\u0000${mall}\u0000${currency}`;
  for (const close of closes) {
    const closed = { at: close.closedAt, by: close.closedBy, everyMall: close.mallId === '' };
    for (const day of close.figures) if (mallId === null || day.mallId === mallId) kept.set(keyOf(day.date, day.mallId, day.currency), { ...day, closed });
  }
  for (const adjustment of later) {
    const close = closes.find((c) => covers(c, adjustment.adjusts, adjustment.mallId));
    if (!close || (mallId !== null && adjustment.mallId !== mallId)) continue;
    const key = keyOf(adjustment.adjusts, adjustment.mallId, adjustment.currency);
    let day = kept.get(key);
    if (!day) kept.set(key, (day = { ...emptySummaryDay(adjustment.adjusts, adjustment.mallId, adjustment.currency), closed: { at: close.closedAt, by: close.closedBy, everyMall: close.mallId === '' } }));
    const earlier = (day.adjustedLater ?? []).find((a) => a.on === adjustment.on);
    if (earlier) earlier.net += adjustment.net;
    else day.adjustedLater = [...(day.adjustedLater ?? []), { on: adjustment.on, net: adjustment.net }].sort((a, b) => (a.on < b.on ? -1 : 1));
  }
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...open, ...kept.values()].sort((a, b) => compare(a.mallId, b.mallId) || compare(a.currency, b.currency) || compare(a.date, b.date));
}
