import { conflictFact } from '../fold/conflict-fact';
import type { LedgerFact, OrderKey } from '../fold/ledger-facts';
import { notificationFact } from '../fold/notification-fact';
import { refusalFact } from '../fold/refusal-fact';
import { storedFactOf } from '../fold/stored-fact';
import { decodeBody } from '../../notifications/decode-body';
import type { NormalizedEvent } from '../../notifications/normalized-event';
import type { FailedInput, OrderFact } from './loaded-order';

/**
 * A kept input as the fact to apply now, or a thrown error saying why it still is none; `null` for
 * a notification repaired into one that names no order (nothing of the ledger's to apply).
 */
export function readFailedInput(input: FailedInput): { fact: LedgerFact; json: string } | null {
  if (input.seq > 0) return { fact: readInputFact(input.factJson), json: input.factJson };
  const made = inboxEventFact(JSON.parse(input.factJson) as unknown);
  return made && { fact: made.fact, json: made.json };
}

/** A stored inbox event (parsed) as the ledger's fact with its order: a throw (not an object, a field missing) says it reads as no event. */
export function inboxEventFact(event: unknown): { order: OrderKey; fact: LedgerFact; json: string } | null {
  if (typeof event !== 'object' || event === null) throw new Error('its stored event is not a JSON object');
  const { mallId } = event as Record<string, unknown>;
  if (typeof mallId !== 'string') throw new Error('its mallId is not a string');
  const made = storedFactOf(event as NormalizedEvent);
  return made && { order: { mallId, shopOrderNo: (event as NormalizedEvent).shopOrderNo! }, ...made };
}

/**
 * A stored input's text as a fact, or a thrown error saying why it is none: JSON that parses into
 * something without a kind, an id and the two times is no fact either (it would stop the whole
 * batch, not only its order).
 */
export function readInputFact(json: string): LedgerFact {
  const fact = JSON.parse(json) as unknown;
  if (typeof fact !== 'object' || fact === null) throw new Error('it is not a JSON object');
  const { kind, id, at, recordedAt } = fact as Record<string, unknown>;
  for (const [name, value] of Object.entries({ kind, id, at, recordedAt })) if (typeof value !== 'string') throw new Error(`its ${name} is not a string`);
  if (kind === 'expectation') checkExpectation(fact as Record<string, unknown>);
  if (kind === 'gateway_listing') checkListing(fact as Record<string, unknown>);
  if (kind === 'gateway_settlement') checkSettlement(fact as Record<string, unknown>);
  return fact as LedgerFact;
}

const KST_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A settlement statement's rows, whose amounts the match adds and compares: anything else would throw inside the fold, or compare as unequal. */
function checkSettlement(fact: Record<string, unknown>): void {
  const { rows } = fact;
  if (!Array.isArray(rows)) throw new Error('its rows are not a list');
  for (const row of rows as Array<Record<string, unknown>>) {
    const amounts = [row.gross, row.fee, row.feeVat, row.payout];
    if (typeof row.pgCno !== 'string' || !amounts.every((a) => Number.isSafeInteger(a)) || typeof row.payoutDay !== 'string' || !KST_DAY.test(row.payoutDay)) {
      throw new Error('a row is not a settled transaction');
    }
  }
}

/** A gateway list's days and rows, which the match compares as text and amounts: anything else would throw inside the fold. */
function checkListing(fact: Record<string, unknown>): void {
  const { firstDay, lastDay, rows } = fact;
  for (const day of [firstDay, lastDay]) if (typeof day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error('its days are not KST days');
  if (!Array.isArray(rows)) throw new Error('its rows are not a list');
  for (const row of rows as Array<Record<string, unknown>>) {
    if (typeof row.pgCno !== 'string' || !Number.isSafeInteger(row.amount) || typeof row.at !== 'string' || Number.isNaN(Date.parse(row.at))) throw new Error('a row is not a listed transaction');
  }
}

/**
 * What the status weighs the order's money against: an amount that is no integer (`"30,000"`)
 * compares as neither less nor more than any payment, and the order would read `paid`.
 */
function checkExpectation(fact: Record<string, unknown>): void {
  const { amount, currency } = fact;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) throw new Error('its amount is not an amount');
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) throw new Error('its currency is not a currency code');
}

/** A conflicting redelivery as stored: its event, and the stored notification's it conflicts with. */
export interface StoredConflict {
  id: number | string;
  received_at: string;
  event_json: string;
  stored_json: string;
}

/** A refused notification as stored. */
export interface StoredRejection {
  id: number | string;
  received_at: string;
  content_type: string | null;
  raw_body: Buffer | Uint8Array | null;
  reason: string;
}

/** A conflicting redelivery's fact, for each order it names, when its money fields or its order differ from the stored notification's. */
export function conflictFacts(row: StoredConflict): OrderFact[] {
  const stored = notificationFact(JSON.parse(row.stored_json) as NormalizedEvent);
  const redelivered = notificationFact(JSON.parse(row.event_json) as NormalizedEvent);
  if (stored === null || redelivered === null) return [];
  const made = conflictFact(stored, redelivered, row.received_at);
  return made === null ? [] : made.orders.map((order) => ({ order, fact: made.fact }));
}

const NOT_OUR_MALL = /is not one of MALL_IDS/;

/** A refused notification's fact, when its stored body names an order of a mall served here. */
export function refusalFactOf(row: StoredRejection): OrderFact | null {
  // A mall this service does not serve (refused for MALL_IDS) has no orders here.
  if (row.raw_body === null || NOT_OUR_MALL.test(row.reason)) return null;
  const made = refusalFact(decodeBody(Buffer.from(row.raw_body), row.content_type ?? undefined), Number(row.id), row.received_at);
  return made === null ? null : { order: made.order, fact: made.fact };
}
