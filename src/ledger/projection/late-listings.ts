import type { ListedTransaction, OrderKey } from '../fold/ledger-facts';
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

/**
 * A row of an imported list stored with no order: the file names none and no notification had
 * named its pgCno when it was imported (a lost notification, as a rule).
 */
export interface UnplacedRow {
  importId: string;
  row: ListedTransaction;
}

/** An unplaced row the batch places in an order: the store writes the order's number on it with the batch. */
export interface Placement {
  importId: string;
  line: number;
  order: OrderKey;
}

/** The listing facts a batch adds, the unplaced rows they place, and the orders whose facts must be read before it can say (their fold went on from a kept state). */
export interface LateListings {
  facts: OrderFact[];
  placed: Placement[];
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

/** Each notification of the batch with the import that governs its day, when one does. */
function governed(newFacts: readonly OrderFact[], imports: readonly ListingImport[]): Array<{ order: OrderKey; list: ListingImport; pgCno: string }> {
  const found: Array<{ order: OrderKey; list: ListingImport; pgCno: string }> = [];
  if (imports.length === 0) return found;
  for (const { order, fact } of newFacts) {
    if (fact.kind !== 'notification') continue;
    const day = dayOf(fact.at);
    const list = day === null ? null : governing(imports, order.mallId, day);
    if (list !== null) found.push({ order, list, pgCno: fact.pgCno });
  }
  return found;
}

/** The unplaced rows the store reads for the batch: of the import governing each notification's day, with its pgCno (a payment's row and its cancels' rows). */
export function unplacedLookups(newFacts: readonly OrderFact[], imports: readonly ListingImport[]): Array<{ importId: string; pgCno: string }> {
  const keys = new Map<string, { importId: string; pgCno: string }>();
  for (const { list, pgCno } of governed(newFacts, imports)) keys.set(JSON.stringify([list.id, pgCno]), { importId: list.id, pgCno });
  return [...keys.values()];
}

/**
 * A notification that arrives after a transaction list of its day was imported is matched with it
 * at once: its order gains the governing import's fact, the very fact the import makes for an order
 * on its days that it does not list (so it is stored once, whichever makes it first), and the fold
 * opens `not_in_gateway_list` for what the gateway does not list. Without it a forged notification
 * that arrives after the day's list would go unmatched until the list came again.
 *
 * The fact carries the import's unplaced rows of the notification's pgCno (`unplaced`, read by
 * `unplacedLookups`): the row of a payment whose notification was lost, placed when the gateway's
 * resend arrives, so the fold matches it like a row the file named the order of, and the resend
 * is no forgery. Those rows are `placed` (each in one order: the first that names its pgCno). A
 * fact of rows is made whatever the order holds already: its id is of its rows, and the fold
 * counts the rows of every fact of the governing import.
 *
 * An order that holds a fact of that import already (its rows, or the batch's own) gains no fact
 * without rows. Whether it holds one is known only from its facts: an order whose fold went on from
 * a kept state is named in `unread`, and the caller asks again once its facts are read.
 */
export function lateListings(
  loaded: ReadonlyMap<string, LoadedOrder>, newFacts: readonly OrderFact[], imports: readonly ListingImport[], unplaced: readonly UnplacedRow[] = [],
): LateListings {
  const made: LateListings = { facts: [], placed: [], unread: [] };
  if (imports.length === 0) return made;
  const wanted = new Map<string, { order: OrderKey; imports: Map<string, { list: ListingImport; pgCnos: Set<string> }> }>();
  const held = new Map<string, Set<string>>();
  const hold = (key: string, importId: string) => {
    const ids = held.get(key) ?? new Set<string>();
    ids.add(importId);
    held.set(key, ids);
  };
  for (const { order, fact } of newFacts) if (fact.kind === 'gateway_listing') hold(orderKeyText(order), fact.importId);
  for (const { order, list, pgCno } of governed(newFacts, imports)) {
    const key = orderKeyText(order);
    const entry = wanted.get(key) ?? { order, imports: new Map<string, { list: ListingImport; pgCnos: Set<string> }>() };
    const ofList = entry.imports.get(list.id) ?? { list, pgCnos: new Set<string>() };
    ofList.pgCnos.add(pgCno);
    entry.imports.set(list.id, ofList);
    wanted.set(key, entry);
  }
  const claimed = new Set<string>();
  for (const [key, { order, imports: lists }] of wanted) {
    const entry = loaded.get(key);
    if (entry === undefined) continue;
    if (!entry.factsRead) {
      made.unread.push(order);
      continue;
    }
    for (const fact of entry.facts) if (fact.kind === 'gateway_listing') hold(key, fact.importId);
    for (const { list, pgCnos } of lists.values()) {
      const rows = unplaced
        .filter((u) => u.importId === list.id && pgCnos.has(u.row.pgCno) && !claimed.has(`${u.importId}:${u.row.line}`))
        .map((u) => u.row)
        .sort((a, b) => a.line - b.line);
      for (const row of rows) {
        claimed.add(`${list.id}:${row.line}`);
        made.placed.push({ importId: list.id, line: row.line, order });
      }
      if (rows.length > 0 || !held.get(key)?.has(list.id)) made.facts.push({ order, fact: listingFact(list, order, rows) });
    }
  }
  return made;
}
