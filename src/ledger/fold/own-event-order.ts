/**
 * The order an event of the ledger's own names (`order.status_changed`, `order.updated`,
 * `ledger.discrepancy` carry it as `order`), when it names one. Their inbox rows name no order (a
 * search by order number lists the gateway's notifications), so a listing reads it from the event.
 */
export function orderNamedBy(event: unknown): { mallId: string; shopOrderNo: string } | null {
  const order = (event as { order?: Record<string, unknown> } | null)?.order;
  return order && typeof order.mallId === 'string' && typeof order.shopOrderNo === 'string' ? { mallId: order.mallId, shopOrderNo: order.shopOrderNo } : null;
}
