import type { OrderKey } from '../../ledger/ledger-facts';
import { distinctOrders, loadedOrders, loadOrders } from './ledger-orders';
import { recomputeOrders, type LedgerOptions, type OrderFact, type Recomputed } from './ledger-writes';
import { dialect, lastTrip, oneTrip, outboxChanged, type Procedure } from './procedure';

/**
 * The ledger's one step for every verb but the notifications' (which fold it into their own
 * round trips): read the orders' records and facts, store the new facts, recompute
 * and write what changed, with the events, in the caller's transaction. `alsoOrders`
 * are recomputed without a new fact (the sweep, a rebuild).
 */
export function* applyOrderFacts(facts: readonly OrderFact[], options: LedgerOptions, alsoOrders: readonly OrderKey[] = []): Procedure<Recomputed[]> {
  const orders = distinctOrders([...facts.map((f) => f.order), ...alsoOrders]);
  if (orders.length === 0) return [];
  const sql = yield* dialect();
  const loaded = loadedOrders(orders, yield* oneTrip(...loadOrders(orders, sql)));
  const { statements, results, events } = recomputeOrders(loaded, facts, options, sql);
  if (events) yield* outboxChanged();
  yield* lastTrip(...statements);
  return results;
}
