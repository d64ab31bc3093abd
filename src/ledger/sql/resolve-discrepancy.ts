import type { OrderKey } from '../fold/ledger-facts';
import { resolutionFact } from '../fold/resolution-fact';
import { pendingFacts, storeLedgerInputs } from './ledger-inputs';
import { get, type Procedure } from '../../store/procedures/procedure';
import { recordAudit } from '../../store/procedures/console-operators/record-audit';

export interface Resolution {
  /** Who resolved it: `resolvedBy` in the record (the API's `by`, the operator, the CLI's OS user). */
  by: string;
  note: string;
  at: string;
  /** Who the audit log names (the internal API's caller, the console's operator, the CLI's user). */
  actor: string;
}

/** The order is the discrepancy's: its caller reads the record once the projector has applied `inputSeq`. */
export type StoredResolution =
  | { outcome: 'resolved'; order: OrderKey; inputSeq: number | null }
  | { outcome: 'already_resolved'; order: OrderKey }
  | { outcome: 'not_found' };

/**
 * Closes a discrepancy with its note, audited, in one transaction: the resolution is an
 * input of its order's ledger (the first one stands), which the projector applies, so its status and
 * an `order.status_changed` follow. A resolution already stored and not yet applied counts as given.
 */
export function* resolveDiscrepancy(id: string, resolution: Resolution): Procedure<StoredResolution> {
  const row = yield* get<{ mall_id: string; shop_order_no: string; resolved_at: string | null }>(
    'SELECT mall_id, shop_order_no, resolved_at FROM ledger_discrepancies WHERE id = ?', id,
  );
  if (!row) return { outcome: 'not_found' };
  const order = { mallId: row.mall_id, shopOrderNo: row.shop_order_no };
  const fact = resolutionFact(id, { by: resolution.by, note: resolution.note }, resolution.at);
  if (row.resolved_at !== null || (yield* pendingFacts(order)).some((f) => f.id === fact.id)) return { outcome: 'already_resolved', order };
  const inputSeq = yield* storeLedgerInputs([{ order, fact }]);
  yield* recordAudit({ at: resolution.at, actor: resolution.actor, action: 'resolved discrepancy', subject: id, detail: `${order.mallId}/${order.shopOrderNo}: ${resolution.note}` });
  return { outcome: 'resolved', order, inputSeq };
}
