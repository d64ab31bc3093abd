import type { LedgerSettings } from '../../ledger/ledger-settings';
import type { OrderRecord } from '../../ledger/order-record';
import { resolutionFact } from '../../ledger/resolution-fact';
import { applyOrderFacts } from './apply-order-facts';
import { get, type Procedure } from './procedure';
import { recordAudit } from './record-audit';

export interface Resolution {
  /** Who resolved it: `resolvedBy` in the record (the API's `by`, the operator, the CLI's OS user). */
  by: string;
  note: string;
  at: string;
  /** Who the audit log names (the internal API's caller, the console's operator, the CLI's user). */
  actor: string;
}

export type ResolveResult =
  | { outcome: 'resolved'; record: OrderRecord }
  | { outcome: 'already_resolved'; record: OrderRecord }
  | { outcome: 'not_found' };

/**
 * Closes a discrepancy with its note, audited, in one transaction: the resolution is a
 * fact of its order (the first one stands), and the order is recomputed, so its status and an
 * `order.status_changed` follow.
 */
export function* resolveDiscrepancy(id: string, resolution: Resolution, settings: LedgerSettings): Procedure<ResolveResult> {
  const row = yield* get<{ mall_id: string; shop_order_no: string; resolved_at: string | null }>(
    'SELECT mall_id, shop_order_no, resolved_at FROM ledger_discrepancies WHERE id = ?', id,
  );
  if (!row) return { outcome: 'not_found' };
  const order = { mallId: row.mall_id, shopOrderNo: row.shop_order_no };
  const fact = resolutionFact(id, { by: resolution.by, note: resolution.note }, resolution.at);
  const [result] = yield* applyOrderFacts(row.resolved_at === null ? [{ order, fact }] : [], { now: resolution.at, settings }, [order]);
  if (row.resolved_at !== null) return { outcome: 'already_resolved', record: result!.record! };
  yield* recordAudit({ at: resolution.at, actor: resolution.actor, action: 'resolved discrepancy', subject: id, detail: `${order.mallId}/${order.shopOrderNo}: ${resolution.note}` });
  return { outcome: 'resolved', record: result!.record! };
}
