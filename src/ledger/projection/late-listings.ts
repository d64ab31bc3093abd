import type { OrderKey } from '../fold/ledger-facts';
import { listingFact, type ListingImport } from '../fold/listing-fact';
import { orderKeyText } from '../fold/order-key';
import { kstDay } from '../summary/kst-day';
import type { LoadedOrder, OrderFact } from './loaded-order';

/** The KST days a batch's notifications fall on, per mall, as one span each: the imported lists the store reads for it. */
export interface NotifiedSpan {
  mallId: string;
  firstDay: string;
  lastDay: string;
}

/** The listing facts a batch adds, and the orders whose facts must be read before it can say (their fold went on from a kept state). */
export interface LateListings {
  facts: OrderFact[];
  unread: OrderKey[];
}

/** The KST day of a notification's own time; null when it has none that reads (the fold says what is wrong with it). */
function dayOf(at: string): string | null {
  try {
    return kstDay(at);
  } catch {
    return null;
  }
}

/** The spans of the days of the batch's notifications, one per mall. */
export function notifiedSpans(facts: readonly OrderFact[]): NotifiedSpan[] {
  const spans = new Map<string, NotifiedSpan>();
  for (const { order, fact } of facts) {
    if (fact.kind !== 'notification') continue;
    const day = dayOf(fact.at);
    if (day === null) continue;
    const span = spans.get(order.mallId);
    if (span === undefined) spans.set(order.mallId, { mallId: order.mallId, firstDay: day, lastDay: day });
    else {
      if (day < span.firstDay) span.firstDay = day;
      if (day > span.lastDay) span.lastDay = day;
    }
  }
  return [...spans.values()];
}

/** The import the gateway's word for the mall's day is: the latest imported covering it (by its time, then id), as the fold reads it. */
function governing(imports: readonly ListingImport[], mallId: string, day: string): ListingImport | null {
  let latest: ListingImport | null = null;
  for (const list of imports) {
    if (list.mallId !== mallId || day < list.firstDay || day > list.lastDay) continue;
    const ms = Date.parse(list.at);
    const latestMs = latest === null ? -Infinity : Date.parse(latest.at);
    if (latest === null || ms > latestMs || (ms === latestMs && list.id > latest.id)) latest = list;
  }
  return latest;
}

/**
 * A notification that arrives after a transaction list of its day was imported is matched with it
 * at once: its order gains the governing import's fact with no rows, the very fact the import makes
 * for an order on its days that it does not list (so it is stored once, whichever makes it first),
 * and the fold opens `not_in_gateway_list` for what the gateway does not list. Without it a forged
 * notification that arrives after the day's list would go unmatched until the list came again.
 *
 * An order that holds a fact of that import already (its rows, or the batch's own) gains nothing.
 * Whether it holds one is known only from its facts: an order whose fold went on from a kept state
 * is named in `unread`, and the caller asks again once its facts are read.
 */
export function lateListings(loaded: ReadonlyMap<string, LoadedOrder>, newFacts: readonly OrderFact[], imports: readonly ListingImport[]): LateListings {
  const made: LateListings = { facts: [], unread: [] };
  if (imports.length === 0) return made;
  const wanted = new Map<string, { order: OrderKey; imports: Map<string, ListingImport> }>();
  const held = new Map<string, Set<string>>();
  const hold = (key: string, importId: string) => {
    const ids = held.get(key) ?? new Set<string>();
    ids.add(importId);
    held.set(key, ids);
  };
  for (const { order, fact } of newFacts) {
    const key = orderKeyText(order);
    if (fact.kind === 'gateway_listing') hold(key, fact.importId);
    if (fact.kind !== 'notification') continue;
    const day = dayOf(fact.at);
    const list = day === null ? null : governing(imports, order.mallId, day);
    if (list === null) continue;
    const entry = wanted.get(key) ?? { order, imports: new Map<string, ListingImport>() };
    entry.imports.set(list.id, list);
    wanted.set(key, entry);
  }
  for (const [key, { order, imports: lists }] of wanted) {
    const entry = loaded.get(key);
    if (entry === undefined) continue;
    if (!entry.factsRead) {
      made.unread.push(order);
      continue;
    }
    for (const fact of entry.facts) if (fact.kind === 'gateway_listing') hold(key, fact.importId);
    for (const list of lists.values()) if (!held.get(key)?.has(list.id)) made.facts.push({ order, fact: listingFact(list, order, []) });
  }
  return made;
}
