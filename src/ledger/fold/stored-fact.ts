import type { LedgerFact } from './ledger-facts';
import type { NormalizedEvent } from '../../notifications/normalized-event';
import { notificationFact } from './notification-fact';

/**
 * A stored notification's fact as the ledger keeps it, with its JSON: an event whose own time does
 * not read is placed at its receive time (its `occurredAt` then says it had none), so no fact of
 * the ledger carries a time nothing can order.
 */
export function storedFactOf(event: NormalizedEvent): { fact: LedgerFact; json: string } | null {
  const made = notificationFact(event);
  if (made === null) return null;
  const fact: LedgerFact = Number.isNaN(Date.parse(made.fact.at)) ? { ...made.fact, at: made.fact.recordedAt, occurredAt: null } : made.fact;
  return { fact, json: JSON.stringify(fact) };
}

/** The same fact's JSON alone, or null when the event names no order: what the projector and the backfill store. */
export function ledgerFactOf(event: NormalizedEvent): string | null {
  return storedFactOf(event)?.json ?? null;
}
