import type { GatewayListingFact, ListedTransaction, OrderKey } from './ledger-facts';
import { ledgerId } from './ledger-id';

/** An import of one transaction list, as its facts name it. */
export interface ListingImport {
  id: string;
  mallId: string;
  firstDay: string;
  lastDay: string;
  /** When it was imported: the facts' `at` and `recordedAt`. */
  at: string;
  /** Some row of the file that was placed in an order is a cancel: the file lists cancels as rows of their own. */
  listsCancels: boolean;
}

/**
 * What one import says of one order: its rows for the order, none when the gateway does not list
 * it. The id is of the import, the order and its rows, so whoever makes the fact (the import, or
 * the projector for a notification that arrives after it) makes the same one, and it is stored once.
 */
export function listingFact(list: ListingImport, order: OrderKey, rows: ListedTransaction[]): GatewayListingFact {
  return {
    kind: 'gateway_listing',
    id: ledgerId('gwl_', [list.id, order.mallId, order.shopOrderNo, JSON.stringify(rows)]),
    at: list.at,
    recordedAt: list.at,
    importId: list.id,
    firstDay: list.firstDay,
    lastDay: list.lastDay,
    listsCancels: list.listsCancels,
    rows,
  };
}
