import { expectationConflict, type ExpectationConflict } from '../../ledger/expectation-conflict';
import { expectationFact, sameExpectation, type ExpectationInput } from '../../ledger/expectation-fact';
import type { OrderKey } from '../../ledger/ledger-facts';
import type { LedgerSettings } from '../../ledger/ledger-settings';
import type { OrderRecord } from '../../ledger/order-record';
import { orderFigures } from '../../ledger/order-figures';
import { foldOrder } from '../../ledger/order-state';
import { loadedOrders, loadOrders, orderKeyText, storedRecord } from './ledger-orders';
import { recomputeOrders } from './ledger-writes';
import { dialect, lastTrip, oneTrip, outboxChanged, type Procedure } from './procedure';

export type PutExpectationResult = { outcome: 'stored'; record: OrderRecord } | { outcome: 'conflict'; conflict: ExpectationConflict };

/**
 * PUT /v1/orders/<mallId>/<shopOrderNo>/expectation, in a write transaction (they run
 * one at a time, so the order cannot change under it): refused when it would restate a wallet-a
 * trade's amount or move the amount of an order already paid; a repeat of the current expectation
 * stores nothing (it must not postpone the grace period).
 */
export function* putExpectation(order: OrderKey, input: ExpectationInput, at: string, settings: LedgerSettings): Procedure<PutExpectationResult> {
  const sql = yield* dialect();
  const loaded = loadedOrders([order], yield* oneTrip(...loadOrders([order], sql)));
  const entry = loaded.get(orderKeyText(order))!;
  const { facts } = entry;
  const conflict = expectationConflict(facts, input);
  if (conflict) return { outcome: 'conflict', conflict };
  const current = orderFigures(foldOrder(facts)).expectation?.fact ?? null;
  const repeat = sameExpectation(current, input);
  const { statements, results, events } = recomputeOrders(loaded, repeat ? [] : [{ order, fact: expectationFact(order, input, at) }], { now: at, settings }, sql);
  if (events) yield* outboxChanged();
  yield* lastTrip(...statements);
  // A repeat answers the stored record; only an order never computed (facts from before the ledger) is computed now.
  return { outcome: 'stored', record: results[0]!.record ?? storedRecord(entry)! };
}
