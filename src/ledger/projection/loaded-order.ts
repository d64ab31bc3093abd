import type { LedgerFact, OrderKey } from '../fold/ledger-facts';
import type { LedgerSettings } from '../../config/ledger-settings';
import { orderKeyText } from '../fold/order-key';
import type { OrderRecord } from '../fold/order-record';
import { composeRecord, type StoredItems } from './record-items';

/** A fact to store for an order. */
export interface OrderFact {
  order: OrderKey;
  fact: LedgerFact;
  /** The fact as JSON when the caller has it already (a notification's, made on the main thread). */
  json?: string;
}

/**
 * An input of the order the ledger could not apply, kept with it: retried at each computation, the
 * order `ledger_error` while one fails. `seq` is a ledger input's seq, or a stored notification's
 * inbox seq negated (both sequences start at 1: the sign tells them apart).
 */
export interface FailedInput {
  seq: number;
  /** The input's stored text, as it is now (a repair corrects it in ledger_inputs, or the event in the inbox). */
  factJson: string;
  error: string;
}

/** Where an order's fold stands in the store: the settings it was folded under, its last moment, and the token of that write. */
export interface FoldPosition {
  settings: string;
  /** The last stored moment applied (epoch ms). */
  lastMoment: number | null;
  version: string;
}

/** What the store holds of an order, as a batch reads it: everything the projection decides from. */
export interface LoadedOrder {
  order: OrderKey;
  /** The order has a row (a new order's row is written with its first record). */
  exists: boolean;
  /** The stored record's header as stored (JSON; a record of the old shape, whole): compared as text. */
  storedJson: string | null;
  /** The stored record's lists as items (`record-items.ts`), each item's JSON text by position. */
  storedItems: StoredItems;
  /** The stored record, when the projector's cache kept it with the items it wrote (`storedItems` are then those): not composed again. */
  keptRecord: OrderRecord | null;
  sweepAt: number | null;
  /** The day its stored status counts from in the day's money; null when the totals do not count the order (`summary-delta.ts`). */
  summaryDay: string | null;
  /** The order's stored facts, when they were read (`factsRead`; an order without a row has none). */
  facts: LedgerFact[];
  factsRead: boolean;
  /** Where the order's fold stood when last written (ledger_fold_positions); null when it has none. */
  foldPosition: FoldPosition | null;
  /** A stored fact that could not be read (corrupt JSON): the order is a `ledger_error`, the others go on. */
  loadError: string | null;
  /** Inputs of the order the ledger could not apply, kept: retried at each computation, the order `ledger_error` while one fails. */
  failedInputs: FailedInput[];
}

export interface LedgerOptions {
  /** The time of the computation (ISO): only decides whether a grace period has passed. */
  now: string;
  settings: LedgerSettings;
}

/** An order not read yet: no row, no facts. */
export const unreadOrder = (order: OrderKey): LoadedOrder =>
  ({ order, exists: false, storedJson: null, storedItems: new Map(), keptRecord: null, sweepAt: null, summaryDay: null, facts: [], factsRead: true, foldPosition: null, loadError: null, failedInputs: [] });

export const storedRecord = (entry: LoadedOrder): OrderRecord | null => {
  if (entry.storedJson === null) return null;
  if (entry.keptRecord !== null) return entry.keptRecord;
  try {
    return composeRecord(entry.storedJson, entry.storedItems);
  } catch {
    // A corrupt stored record is only what the events compare with: the new one replaces it.
    return null;
  }
};

/** The orders once each, sorted: a batch writes its records, and queues their events, in one order whatever the arrival. */
export function distinctOrders(orders: Iterable<OrderKey>): OrderKey[] {
  const byKey = new Map<string, OrderKey>();
  for (const order of orders) byKey.set(orderKeyText(order), { mallId: order.mallId, shopOrderNo: order.shopOrderNo });
  return [...byKey.values()].sort((a, b) => (a.mallId !== b.mallId ? (a.mallId < b.mallId ? -1 : 1) : a.shopOrderNo < b.shopOrderNo ? -1 : a.shopOrderNo > b.shopOrderNo ? 1 : 0));
}

/** The orders once each, in the order first seen: a new order's row, and the events, come in the order the inputs were stored. */
export function firstSeen(orders: readonly OrderKey[]): OrderKey[] {
  const byKey = new Map<string, OrderKey>();
  for (const order of orders) if (!byKey.has(orderKeyText(order))) byKey.set(orderKeyText(order), order);
  return [...byKey.values()];
}
