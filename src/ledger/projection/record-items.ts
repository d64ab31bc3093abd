import type { OrderRecord } from '../fold/order-record';

/**
 * The record's lists that grow with the order's history: the store keeps each as rows, one item a
 * row by its position (ledger_order_items, migration 031), and the order's row keeps the header:
 * the record with each of these lists replaced by its length, in its place among the keys, so that
 * header and items compose the very JSON the record stringifies to.
 *
 * None is append-only by construction, so a write compares item by item: the fold orders `events`,
 * `payments`, `cancels` and `deposits` by the gateway's time (an input that arrives out of order
 * lands inside them), flags a payment or deposit `cancelled` once its cancels took it all, sets a
 * cancel's amount and `remainingAfter` from a later report, moves a requested cancel's `state`, and
 * shows an open discrepancy's current figures and its resolution. An input in order appends to
 * each list it grows and changes none of its earlier items, so it writes only its new items; one
 * that changes an earlier item rewrites its list from there. A discrepancy is one item: its
 * `eventIds` are fixed when it opens (its id is of them).
 */
const ITEM_LISTS = ['payments', 'cancels', 'deposits', 'refundsFailed', 'cancellationsRequested', 'events', 'discrepancies'] as const;
export type ItemList = (typeof ITEM_LISTS)[number];
const IS_ITEM_LIST: ReadonlySet<string> = new Set(ITEM_LISTS);

/** An order's stored items: each list's items' JSON texts by position. */
export type StoredItems = ReadonlyMap<string, readonly string[]>;

/** A record as the store keeps it: its whole JSON (what event ids hash), its header, and each list's items as JSON. */
export interface RecordText {
  json: string;
  header: string;
  lists: Map<ItemList, string[]>;
}

/** What one list's write does: clears its positions from `from` when `clear`, then writes `items` at `from`, `from + 1`, …. */
export interface ListWrite {
  list: ItemList;
  from: number;
  clear: boolean;
  items: string[];
}

/**
 * The record's texts, made exactly as JSON.stringify makes the whole (keys in their order, an
 * undefined value left out): the whole is the header with each list's items put in its place.
 */
export function recordText(record: OrderRecord): RecordText {
  const whole: string[] = [];
  const header: string[] = [];
  const lists = new Map<ItemList, string[]>();
  for (const [key, value] of Object.entries(record) as Array<[string, unknown]>) {
    const name = JSON.stringify(key);
    if (IS_ITEM_LIST.has(key) && Array.isArray(value)) {
      const items = value.map((item) => JSON.stringify(item) ?? 'null');
      lists.set(key as ItemList, items);
      whole.push(`${name}:[${items.join(',')}]`);
      header.push(`${name}:${items.length}`);
      continue;
    }
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) continue;
    whole.push(`${name}:${text}`);
    header.push(`${name}:${text}`);
  }
  return { json: `{${whole.join(',')}}`, header: `{${header.join(',')}}`, lists };
}

/**
 * The record a stored header and its items compose. A header written before the items table
 * holds its lists whole (arrays): it reads as it was stored, whatever items there are.
 */
export function composeRecord(header: string, items: StoredItems): OrderRecord {
  const record = JSON.parse(header) as Record<string, unknown>;
  for (const list of ITEM_LISTS) {
    const length = record[list];
    if (typeof length !== 'number') continue;
    const texts = items.get(list) ?? [];
    if (texts.length < length) throw new Error(`the stored record's ${list} has ${texts.length} of its ${length} items`);
    // Replacing a value keeps the key's place: the record stringifies as it was written.
    record[list] = texts.slice(0, length).map((text) => JSON.parse(text) as unknown);
  }
  return record as unknown as OrderRecord;
}

/**
 * How a stored header keeps its lists: each list's length where it is kept as items, and whether
 * it is a record of the old shape, its lists whole inside it (written before the items table).
 */
function storedShape(header: string | null): { lengths: Map<string, number>; whole: boolean } {
  const lengths = new Map<string, number>();
  let whole = false;
  if (header === null) return { lengths, whole };
  try {
    const record = JSON.parse(header) as Record<string, unknown>;
    for (const list of ITEM_LISTS) {
      const value = record[list];
      if (typeof value === 'number') lengths.set(list, value);
      else if (Array.isArray(value)) whole = true;
    }
  } catch {
    // A corrupt header: every list is written again from its start.
  }
  return { lengths, whole };
}

/**
 * What the record's lists write over what is stored: for each list, from its first item that
 * differs (an append: from the stored length, nothing cleared). A list is trusted only where the
 * stored header says it is kept as items and every item is there; otherwise it is written whole,
 * clearing whatever rows it had (an old-shape record, upgraded as it is next written: `whole`).
 */
export function itemWrites(next: RecordText | null, storedHeader: string | null, stored: StoredItems): { writes: ListWrite[]; whole: boolean } {
  const { lengths, whole } = storedShape(storedHeader);
  const writes: ListWrite[] = [];
  for (const list of ITEM_LISTS) {
    const items = next?.lists.get(list) ?? [];
    const rows = stored.get(list) ?? [];
    const length = lengths.get(list);
    if (length === undefined || rows.length !== length) {
      if (items.length > 0 || rows.length > 0) writes.push({ list, from: 0, clear: rows.length > 0, items });
      continue;
    }
    let from = 0;
    const common = Math.min(length, items.length);
    while (from < common && items[from] === rows[from]) from += 1;
    if (from === length && from === items.length) continue;
    writes.push({ list, from, clear: from < length, items: items.slice(from) });
  }
  return { writes, whole };
}

/** The items a store holds once these writes are applied: what the statements of `src/ledger/sql/order-items.ts` do to the rows. */
export function withItemWrites(stored: StoredItems, writes: readonly ListWrite[]): Map<string, string[]> {
  const lists = new Map([...stored].map(([list, items]) => [list, [...items]]));
  for (const { list, from, clear, items } of writes) {
    const rows = lists.get(list) ?? [];
    if (clear) rows.length = Math.min(rows.length, from);
    items.forEach((item, i) => (rows[from + i] = item));
    lists.set(list, rows);
  }
  return lists;
}
