import type { GatewayListingFact, ListedTransaction, OrderKey } from '../../ledger/fold/ledger-facts';
import { ledgerId } from '../../ledger/fold/ledger-id';
import { listingFact, type ListingImport } from '../../ledger/fold/listing-fact';
import { orderKeyText } from '../../ledger/fold/order-key';
import type { GatewayTransactionRow } from '../file/gateway-rows';

/** A row with the order it belongs to (the file's order number, else the order its pgCno was notified for). */
export interface PlacedRow {
  order: OrderKey;
  row: GatewayTransactionRow;
}

/**
 * The import's id: of the file's bytes and the mall, so the same file imported again for the same
 * mall is the same import (and changes nothing), whatever its name.
 */
export const importIdOf = (sha256: string, mallId: string): string => ledgerId('gwi_', [sha256, mallId]);

/**
 * One `gateway_listing` fact per order the import concerns: the orders its rows name, each with
 * its rows, and the `others` (orders with a notification or an earlier list's row on a day the
 * file covers) with none, which is how the ledger finds what the gateway does not list. The fact's
 * id is of the import, the order and its rows: importing the same file again makes the same facts.
 * `cancelsListed` is the import's flag, for rows placed after it was stored.
 */
export function listingFacts(
  list: Omit<ListingImport, 'listsCancels'>, placed: readonly PlacedRow[], others: readonly OrderKey[], cancelsListed = listsCancels(placed),
): Array<{ order: OrderKey; fact: GatewayListingFact }> {
  const listing = { ...list, listsCancels: cancelsListed };
  const byOrder = new Map<string, { order: OrderKey; rows: ListedTransaction[] }>();
  for (const { order, row } of placed) {
    const key = orderKeyText(order);
    let entry = byOrder.get(key);
    if (entry === undefined) byOrder.set(key, (entry = { order, rows: [] }));
    entry.rows.push(listed(row));
  }
  for (const order of others) {
    const key = orderKeyText(order);
    if (order.mallId === list.mallId && !byOrder.has(key)) byOrder.set(key, { order, rows: [] });
  }
  return [...byOrder.values()].map(({ order, rows }) => ({ order, fact: listingFact(listing, order, rows) }));
}

/** Whether the file lists cancels as rows of their own: one of its placed rows is a cancel (the import keeps it, for the orders notified later). */
export const listsCancels = (placed: readonly PlacedRow[]): boolean => placed.some((p) => p.row.kind === 'cancel');

/** What the ledger keeps of a row: ids, amount, status and time, never the file's other columns. */
function listed(row: GatewayTransactionRow): ListedTransaction {
  return { line: row.line, kind: row.kind, pgCno: row.pgCno, cancelPgCno: row.cancelPgCno, amount: row.amount, status: row.status, at: row.at };
}
