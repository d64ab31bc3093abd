import type { OrderKey } from './ledger-facts';

/** The order's key as one string, for maps (JSON: no separator can make two keys one). */
export const orderKeyText = (order: OrderKey): string => JSON.stringify([order.mallId, order.shopOrderNo]);
