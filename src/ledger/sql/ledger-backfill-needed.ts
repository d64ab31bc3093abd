import { get, type Procedure } from '../../store/procedures/procedure';

/** The migration that brought the payment ledger: notifications stored before it have no facts until a backfill. */
const LEDGER_MIGRATION = 10;

/**
 * Whether notifications stored before the ledger existed still lack their facts, so the receiver
 * can tell the operator at start to run `noti-receiver ledger backfill`. The backfill goes through
 * the inbox in order, so the newest notification naming an order stored before migration 010 (and
 * not yet emptied by retention) has its fact once the backfill is done: two index lookups. Only
 * what the projector has passed counts: a notification it has not reached yet gets its fact from
 * the projector, not from a backfill (a receiver that starts while the projector catches up must
 * not ask for one).
 */
export function* ledgerBackfillNeeded(): Procedure<boolean> {
  const migration = yield* get<{ applied_at: string | Date }>('SELECT applied_at FROM schema_migrations WHERE version = ?', LEDGER_MIGRATION);
  if (migration === undefined) return false;
  const before = new Date(migration.applied_at).toISOString();
  const newest = yield* get<{ event_id: string; mall_id: string; shop_order_no: string }>(
    `SELECT event_id, mall_id, shop_order_no FROM inbox
     WHERE pruned_at IS NULL AND received_at < ? AND shop_order_no IS NOT NULL AND origin = 'gateway'
       AND seq <= (SELECT inbox_seq FROM ledger_projector WHERE id = 1)
     ORDER BY received_at DESC LIMIT 1`,
    before,
  );
  if (newest === undefined) return false;
  const fact = yield* get<{ found: number }>(
    `SELECT 1 AS found FROM ledger_orders o JOIN ledger_facts f ON f.order_id = o.order_id AND f.id = ?
     WHERE o.shop_order_no = ? AND o.mall_id = ?`,
    newest.event_id, newest.shop_order_no, newest.mall_id,
  );
  return fact === undefined;
}
