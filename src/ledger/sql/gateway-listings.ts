import type { GatewayFileFact, OrderKey } from '../fold/ledger-facts';
import { all, type Procedure } from '../../store/procedures/procedure';

/** Files an order's page shows at most: a month of daily lists and the month's statements, and then some. */
const MAX_LISTINGS = 40;

/**
 * What the gateway's imported transaction lists and settlement statements said of one order (its
 * `gateway_listing` and `gateway_settlement` facts), the latest first: the order's page shows the
 * gateway's rows beside the notifications.
 */
export function* gatewayListings(order: OrderKey): Procedure<GatewayFileFact[]> {
  const rows = yield* all<{ fact_json: string }>(
    `SELECT f.fact_json FROM ledger_facts f JOIN ledger_orders o ON o.order_id = f.order_id
      WHERE o.mall_id = ? AND o.shop_order_no = ? AND f.kind IN ('gateway_listing', 'gateway_settlement') ORDER BY f.recorded_at DESC, f.id LIMIT ?`,
    order.mallId, order.shopOrderNo, MAX_LISTINGS,
  );
  return rows.map((row) => JSON.parse(row.fact_json) as GatewayFileFact);
}
