import { expectationConflict, type ExpectationConflict } from '../fold/expectation-conflict';
import { expectationFact, sameExpectation, type ExpectationInput } from '../fold/expectation-fact';
import type { OrderKey } from '../fold/ledger-facts';
import { orderFigures } from '../fold/order-figures';
import { foldOrder } from '../fold/order-state';
import { pendingFacts, storeLedgerInputs } from './ledger-inputs';
import { orderKeyText } from '../fold/order-key';
import { loadedOrders, loadOrders } from './ledger-orders';
import { dialect, oneTrip, type Procedure } from '../../store/procedures/procedure';

/** `inputSeq`: the input stored (null for a repeat, which stores nothing); the caller reads the record once the projector has applied it. */
export type StoredExpectation = { outcome: 'stored'; inputSeq: number | null } | { outcome: 'conflict'; conflict: ExpectationConflict };

/**
 * PUT /v1/orders/<mallId>/<shopOrderNo>/expectation, in a write transaction (they run
 * one at a time, so the order's inputs cannot change under it): refused when it would restate a
 * wallet-a trade's amount or move the amount of an order already paid, judged on every input stored
 * so far, applied by the projector or not yet; a repeat of the current expectation stores nothing
 * (it must not postpone the grace period). Otherwise the expectation is stored as an input of the
 * ledger, which its projector applies.
 */
export function* putExpectation(order: OrderKey, input: ExpectationInput, at: string): Procedure<StoredExpectation> {
  const sql = yield* dialect();
  const loaded = loadedOrders([order], yield* oneTrip(...loadOrders([order], sql)));
  const facts = [...loaded.get(orderKeyText(order))!.facts, ...(yield* pendingFacts(order))];
  const conflict = expectationConflict(facts, input);
  if (conflict) return { outcome: 'conflict', conflict };
  const current = orderFigures(foldOrder(facts)).expectation?.fact ?? null;
  if (sameExpectation(current, input)) return { outcome: 'stored', inputSeq: null };
  return { outcome: 'stored', inputSeq: yield* storeLedgerInputs([{ order, fact: expectationFact(order, input, at) }]) };
}
