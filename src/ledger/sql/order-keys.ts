import type { OrderKey } from '../fold/ledger-facts';
import { jsonRows } from '../../store/procedures/json-rows';

/** A batch's order keys on PostgreSQL, as one JSON parameter: `${PG_ORDER_KEYS.from} AS k` gives k.mall_id, k.shop_order_no. */
export const PG_ORDER_KEYS = jsonRows([['mall_id', 'text'], ['shop_order_no', 'text']]);

/** The orders' keys as the parameter of `PG_ORDER_KEYS`. */
export const orderKeysParam = (orders: readonly OrderKey[]): string => PG_ORDER_KEYS.rowsParam(orders.map((o) => [o.mallId, o.shopOrderNo]));
