import type { GatewayListingFact, ListedTransaction } from './ledger-facts';
import { kstDay } from '../summary/kst-day';
import { succeeded, type OrderFigures } from './order-figures';
import type { Timed } from './order-state';
import type { ShownCondition } from './shown-condition';
import type { DiscrepancyKind } from './order-record';
import { SETTLEMENT_KINDS } from './settlement-conditions';

/**
 * The differences a match with the gateway's files opens, in the order they are told: a list row's
 * own, a notification the list lacks, then a settlement statement row's (settlement-conditions.ts).
 */
export const GATEWAY_LIST_KINDS = [
  'notification_missing', 'gateway_amount_differs', 'gateway_status_differs', 'not_in_gateway_list', ...SETTLEMENT_KINDS,
] as const satisfies readonly DiscrepancyKind[];

/**
 * Where the gateway's merchant portal lets a merchant have a notification sent again: a
 * notification the receiver never accepted comes back only from there.
 */
export const RESEND_PATH = 'transaction management → notification inquiry';

type Listing = Timed<GatewayListingFact>;
type State = 'approved' | 'cancelled' | 'failed';

/**
 * The order's notifications against what the gateway's imported transaction lists say about it,
 * for the KST days the lists cover. The list imported latest for a day is the gateway's word for
 * that day: an earlier list's rows of that day no longer count (a list exported again after the
 * day settled corrects the first one), and its own rows count for the days no later list covers.
 * The list is the import, whichever of its facts the order holds.
 *
 * A payment row is matched by pgCno, a cancel row by cancelPgCno (one that names none, by its
 * payment and amount), whatever day the notification carries; a notification is looked for in the
 * lists when its own day is covered. Each difference is one condition: an amount, a status (the
 * list says cancelled or failed and the ledger holds the payment, or the reverse), a notification
 * the gateway sent and this receiver never accepted (`notification_missing`, closed by the ledger
 * when it arrives), one accepted here that the gateway does not list (`not_in_gateway_list`: a
 * possible forgery, since a notification carries no signature).
 */
export function gatewayListConditions(figures: OrderFigures): ShownCondition[] {
  const { listings } = figures;
  if (listings.length === 0) return [];
  const governing = (day: string): Listing | undefined => {
    for (let i = listings.length - 1; i >= 0; i -= 1) if (listings[i]!.fact.firstDay <= day && day <= listings[i]!.fact.lastDay) return listings[i];
    return undefined;
  };
  // An order may hold several facts of one import (its own rows, then a row placed in it when a
  // payment's notification came after the import): the rows of every fact of the governing import
  // count, each line once.
  const rows: Array<{ row: ListedTransaction; listing: Listing }> = [];
  const seen = new Set<string>();
  for (const listing of listings) {
    for (const row of listing.fact.rows) {
      const line = `${listing.fact.importId}:${row.line}`;
      if (governing(kstDay(row.at))?.fact.importId !== listing.fact.importId || seen.has(line)) continue;
      seen.add(line);
      rows.push({ row, listing });
    }
  }
  const firstListing = firstListingOf(listings);

  const shown: ShownCondition[] = [];
  const missingCancelOf = new Set<string>();
  const listedPayments = new Set<string>();
  const listedCancels = new Set<string>();
  for (const { row } of rows.filter((r) => r.row.kind === 'cancel')) {
    const cancel = figures.cancels.find((c) => (row.cancelPgCno !== null ? c.cancelPgCno === row.cancelPgCno : c.pgCno === row.pgCno && c.amount === row.amount));
    if (cancel === undefined) {
      if (row.status === 'failed') continue;
      missingCancelOf.add(row.pgCno);
      shown.push(missing(row, firstListing(row), refusalOf(figures, row)));
      continue;
    }
    listedCancels.add(cancel.eventId);
    const day = kstDay(row.at);
    if (cancel.amount !== row.amount) shown.push(amountDiffers(row, cancel.eventId, cancel.amount, day));
    if (row.status === 'failed') shown.push(statusDiffers(row, cancel.eventId, 'failed', 'cancelled', day));
  }
  const held = [...figures.payments, ...figures.deposits];
  for (const { row, listing } of rows.filter((r) => r.row.kind === 'payment')) {
    const day = kstDay(row.at);
    const payment = held.find((p) => p.pgCno === row.pgCno);
    listedPayments.add(row.pgCno);
    const listed = listedState(row);
    if (payment === undefined) {
      const failed = figures.notifications.find((n) => n.fact.pgCno === row.pgCno && !succeeded(n) && PAYING.has(n.fact.notiType));
      if (failed !== undefined) {
        if (listed !== null && listed !== 'failed') shown.push(statusDiffers(row, failed.id, listed, 'failed', day));
      } else if (row.status !== 'failed') shown.push(missing(row, firstListing(row), refusalOf(figures, row)));
      continue;
    }
    if (payment.amount !== row.amount) shown.push(amountDiffers(row, payment.eventId, payment.amount, day));
    const ledger = cancelledBy(figures, payment.pgCno, payment.amount, listing.fact.lastDay) ? 'cancelled' : 'approved';
    // A cancel the list shows and this receiver never heard of explains a cancelled row: it is the one difference.
    if (listed === null || listed === ledger || (listed === 'cancelled' && missingCancelOf.has(row.pgCno))) continue;
    shown.push(statusDiffers(row, payment.eventId, listed, ledger, day));
  }

  for (const p of held) {
    const day = kstDay(p.at);
    if (governing(day) === undefined || listedPayments.has(p.pgCno)) continue;
    shown.push({ kind: 'not_in_gateway_list', eventIds: [p.eventId], details: { pgCno: p.pgCno, cancelPgCno: null, day, amount: p.amount } });
  }
  for (const c of figures.cancels) {
    const day = kstDay(c.at);
    if (governing(day)?.fact.listsCancels !== true || listedCancels.has(c.eventId)) continue;
    shown.push({ kind: 'not_in_gateway_list', eventIds: [c.eventId], details: { pgCno: c.pgCno, cancelPgCno: c.cancelPgCno, day, amount: c.amount } });
  }
  return shown;
}

const PAYING = new Set(['10', '70', '30']);

/** What the list's status says of the money: null for a status the match does not read. */
function listedState(row: ListedTransaction): State | null {
  if (row.status === 'approved' || row.status === 'partially_cancelled') return 'approved';
  if (row.status === 'cancelled' || row.status === 'failed') return row.status;
  return null;
}

/**
 * Whether the payment's cancels dated up to the list's last day took all of it: a list shows the
 * status as of the days it covers, so a cancel made after them is no difference.
 */
function cancelledBy(figures: OrderFigures, pgCno: string, amount: number | null, lastDay: string): boolean {
  let taken = 0;
  for (const c of figures.cancels) if (c.pgCno === pgCno && kstDay(c.at) <= lastDay) taken += c.amount ?? 0;
  return amount !== null && taken >= amount;
}

/**
 * The first list (by import time, then id) that listed the transaction: the id of a missing
 * notification's discrepancy, so a later list that lists it again shows the same one.
 */
function firstListingOf(listings: readonly Listing[]): (row: ListedTransaction) => string {
  const first = new Map<string, string>();
  for (const listing of listings) for (const row of listing.fact.rows) if (!first.has(rowKey(row))) first.set(rowKey(row), listing.id);
  return (row) => first.get(rowKey(row))!;
}

const rowKey = (row: ListedTransaction): string => JSON.stringify([row.kind, row.pgCno, row.cancelPgCno, row.cancelPgCno === null && row.kind === 'cancel' ? row.amount : null]);

/** The receiver's refusal of this transaction's notification, when it refused one (the order's refused_notification says why). */
function refusalOf(figures: OrderFigures, row: ListedTransaction): number | null {
  const refused = figures.refusals.find(({ fact: r }) => r.pgCno === row.pgCno && (row.kind === 'payment' ? r.cancelPgCno === null : r.cancelPgCno === row.cancelPgCno));
  return refused?.fact.rejectionId ?? null;
}

function missing(row: ListedTransaction, listingId: string, rejectionId: number | null): ShownCondition {
  return {
    kind: 'notification_missing',
    eventIds: [listingId],
    details: {
      pgCno: row.pgCno, cancelPgCno: row.cancelPgCno, day: kstDay(row.at), listedAmount: row.amount, listedStatus: row.status, line: row.line,
      ...(rejectionId !== null && { rejectionId }), resendPath: RESEND_PATH,
    },
  };
}

function amountDiffers(row: ListedTransaction, eventId: string, notified: number | null, day: string): ShownCondition {
  return { kind: 'gateway_amount_differs', eventIds: [eventId], details: { pgCno: row.pgCno, cancelPgCno: row.cancelPgCno, day, listedAmount: row.amount, notifiedAmount: notified, line: row.line } };
}

function statusDiffers(row: ListedTransaction, eventId: string, listed: State, ledger: State, day: string): ShownCondition {
  return { kind: 'gateway_status_differs', eventIds: [eventId], details: { pgCno: row.pgCno, cancelPgCno: row.cancelPgCno, day, listedAmount: row.amount, listedStatus: listed, ledgerStatus: ledger, line: row.line } };
}
