import type { NotificationFact } from '../fold/ledger-facts';
import type { LedgerSettings } from '../../config/ledger-settings';
import type { NormalizedEvent } from '../../notifications/normalized-event';
import { applyOrderFacts } from './apply-order-facts';
import { ledgerFactOf } from '../fold/stored-fact';
import type { OrderFact } from '../projection/loaded-order';
import { all, pageEnd, type Procedure } from '../../store/procedures/procedure';

export interface BackfillPage {
  /** Stored notifications read in this page. */
  notifications: number;
  /** Facts found among them (a fact already stored adds nothing). */
  facts: number;
  /** Order records that came out different. */
  changed: number;
  /** The inbox seq the next page starts after; null after the last row. */
  next: number | null;
}

type InboxEventRow = { seq: number | string; event_json: string };

/**
 * `noti-receiver ledger backfill`, one page of the inbox per transaction: the notifications stored
 * before the ledger existed (migration 010) get the facts they would have got when they arrived,
 * made from their stored event by the same function (`ledgerFactOf`), and their orders are
 * recomputed, with the events a live change sends. A fact already stored is the same fact and adds
 * nothing, so a second run, or one over notifications the ledger saw, changes nothing. Rows whose
 * data retention removed (`pruned_at`) have no amounts left and are skipped; the ledger's own
 * facts are kept beyond retention from the upgrade on. Pages follow the inbox's key (seq).
 */
export function* backfillLedger(after: number | null, limit: number, now: string, settings: LedgerSettings): Procedure<BackfillPage> {
  // Internal entries (a command's final state, the ledger's own events) are not the gateway's.
  const rows = yield* all<InboxEventRow>(
    `SELECT seq, event_json FROM inbox WHERE seq > ? AND pruned_at IS NULL AND origin = 'gateway' ORDER BY seq LIMIT ?`,
    after ?? 0, limit,
  );
  const facts: OrderFact[] = [];
  for (const row of rows) {
    const event = JSON.parse(row.event_json) as NormalizedEvent;
    // The fact as recordNotification would have stored it (ledgerFactOf); its order as notificationFact names it.
    const json = ledgerFactOf(event);
    if (json !== null) facts.push({ order: { mallId: event.mallId, shopOrderNo: event.shopOrderNo! }, fact: JSON.parse(json) as NotificationFact, json });
  }
  const results = yield* applyOrderFacts(facts, { now, settings });
  return { notifications: rows.length, facts: facts.length, changed: results.filter((r) => r.changed).length, next: pageEnd(rows, limit, (row) => row.seq) };
}
