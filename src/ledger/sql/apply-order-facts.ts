import type { OrderKey } from '../fold/ledger-facts';
import { distinctOrders, type LedgerOptions, type OrderFact } from '../projection/loaded-order';
import type { Recomputed } from '../projection/order-changes';
import { projectOrders } from '../projection/project-orders';
import { loadedOrders, loadGoingOn, loadOrders } from './ledger-orders';
import { changeStatements } from './ledger-writes';
import { changes, dialect, foldCache, lastTrip, oneTrip, outboxChanged, type Procedure, type Statement } from '../../store/procedures/procedure';

const BUMP_GENERATION = 'UPDATE ledger_projector SET generation = generation + 1 WHERE id = 1';

/**
 * The ledger's one step for every verb but the notifications' (which fold it into their own
 * round trips): read the orders' records and checkpoints (their facts where a checkpoint cannot
 * go on), store the new facts, recompute and write what changed, with the events, in the caller's
 * transaction. `alsoOrders` are recomputed without a new fact (the sweep, a rebuild); `replay`
 * computes every order from its facts alone, from nothing (a rebuild).
 */
export function* applyOrderFacts(facts: readonly OrderFact[], options: LedgerOptions, alsoOrders: readonly OrderKey[] = [], replay = false): Procedure<Recomputed[]> {
  const orders = distinctOrders([...facts.map((f) => f.order), ...alsoOrders]);
  if (orders.length === 0) return [];
  const sql = yield* dialect();
  const cache = yield* foldCache();
  const loaded = replay ? loadedOrders(orders, yield* oneTrip(...loadOrders(orders, sql))) : yield* loadGoingOn(orders, facts, options.settings, cache);
  const projected = projectOrders(loaded, facts, options, cache);
  const { statements, events } = changeStatements(projected, options.now, sql);
  // A projector batch computed from records read before these writes must not land over them.
  yield* queueAfter(statements, events, statements.length + events.length > 0 ? [changes(BUMP_GENERATION)] : []);
  return projected.results;
}

/**
 * The ledger's writes, then its events: on PostgreSQL the records are written (and answered)
 * before the outbox-order lock is taken, so the acks' transactions, which take it as they begin,
 * wait only while the events draw their positions and the transaction commits. `after` go with
 * the events (a projector's position).
 */
export function* queueAfter(writes: readonly Statement[], events: readonly Statement[], after: readonly Statement[] = []): Procedure<void> {
  if (events.length === 0) {
    yield* lastTrip(...writes, ...after);
    return;
  }
  // Unread: on PostgreSQL the lock is asked for in the same round trip, behind the writes (a write
  // that fails fails the lock and the transaction with it), and is held from the moment they are
  // done, as long as when it was asked for after their answers, one round trip fewer.
  yield* lastTrip(...writes);
  yield* outboxChanged();
  yield* lastTrip(...events, ...after);
}
