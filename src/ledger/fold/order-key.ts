import type { OrderKey } from './ledger-facts';

/**
 * An order's key as one text, for maps and sets: two keys give one text only when both parts are
 * equal, whatever either holds (a '/', a NUL), since JSON quotes and escapes each part.
 */
export function orderKeyText(order: OrderKey): string {
  return JSON.stringify([order.mallId, order.shopOrderNo]);
}
