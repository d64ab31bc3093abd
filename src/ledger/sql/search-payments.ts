import { orderKeyText } from '../fold/order-key';
import type { OrderRecord, OrderStatus } from '../fold/order-record';
import { jsonField } from '../../store/procedures/json-field';
import { all, dialect, type Dialect, type Param, type Procedure } from '../../store/procedures/procedure';
import { recordColumns, storedOrderRecord, type StoredRecordRow } from './order-items';
import { hitDetails } from './search-hit-details';

/** An amount to find, in its currency's minor units: only orders in that currency have it. */
export interface SearchAmount {
  amount: number;
  currency: string;
}

/** What one box finds by (see the console's search-query.ts), and the filters beside it. */
export interface PaymentSearch {
  /** Typed text tried as an order number, a pgCno and an approval number; null when none. */
  key: string | null;
  /** More forms of the key tried as a pgCno and an approval number: its digits, as a receipt prints them grouped (`4001 0002`). */
  codes?: readonly string[];
  /** The amounts the text reads as (a bare number is one per currency); none when it reads as no amount. */
  amounts: readonly SearchAmount[];
  /** LEDGER_DEFAULT_CURRENCY: the currency of an order whose expectation names none. */
  defaultCurrency: string;
  /** The gateway's payMethodTypeCode. */
  method?: string;
  status?: OrderStatus;
  /** The event's own time, epoch ms: at or after `fromMs`, before `toMs`. */
  fromMs?: number;
  toMs?: number;
  limit: number;
}

/**
 * What a hit matched. By amount: `amount`, a payment's or a deposit's; `cancelAmount`, a cancel's or
 * a refund's; `refundFailedAmount`, a refund the bank could not pay out (51); `declinedAmount`, a
 * notification that did not succeed (its resCd is not 0000: the ledger moves no money on it).
 * Only `amount` is money the order was paid.
 */
export type SearchMatch = 'shopOrderNo' | 'pgCno' | 'approvalNo' | 'amount' | 'cancelAmount' | 'refundFailedAmount' | 'declinedAmount';

export interface PaymentHit {
  order: OrderRecord;
  matched: SearchMatch;
  /** The notification that matched; null for an order found by its number that has none (an expectation only). */
  payment: {
    eventId: string; notiType: string; pgCno: string; approvalNo: string | null; amount: number | null; method: string | null; at: string;
    /** The last four digits of its card (a cancel's: its payment's), masked as the pages mask it; null when none is known. */
    cardLastFour: string | null;
  } | null;
}

/**
 * The events whose amount is money going back: a cancel (20), a deposit's cancellation (31), a
 * refund completed (50). An amount found on one of them is a cancel's, so it is never listed as
 * what the customer paid.
 */
const CANCEL_TYPES: ReadonlySet<string> = new Set(['20', '31', '50']);

type SearchRow = {
  shop_order_no: string; mall_id: string; event_id: string; noti_type: string; pg_cno: string;
  approval_no: string | null; amount: number | string | null; method: string | null; at_ms: number | string;
};

const ROW = 's.shop_order_no, s.mall_id, s.event_id, s.noti_type, s.pg_cno, s.approval_no, s.amount, s.method, s.at_ms';

/**
 * Orders found by one key, each through its own index of payment_search (migration 021): the
 * order number (the table's key), the pgCno, the approval number, the amount with its time (one
 * range, newest first). The filters narrow each walk; the status is the order's, joined by
 * ledger_orders' unique key. Hits newest first, one per order and key; at most `limit` of each.
 */
export function* searchPayments(search: PaymentSearch): Procedure<PaymentHit[]> {
  const found: Array<SearchRow & { matched: SearchMatch }> = [];
  const statusJoin = search.status ? ' JOIN ledger_orders o ON o.shop_order_no = s.shop_order_no AND o.mall_id = s.mall_id' : '';
  const lookups: Array<[SearchMatch | null, string, string, Param[]]> = [];
  if (search.key !== null) {
    // An order number is only ever what was typed: `ORD 1` without its space is another order's.
    const codes = [...new Set([search.key, ...(search.codes ?? [])])];
    const oneOf = codes.map(() => '?').join(', ');
    lookups.push(['shopOrderNo', statusJoin, 's.shop_order_no = ?', [search.key]]);
    for (const [matched, column] of [['pgCno', 's.pg_cno'], ['approvalNo', 's.approval_no']] as const) {
      lookups.push([matched, statusJoin, `${column} IN (${oneOf})`, codes]);
    }
  }
  if (search.amounts.length > 0) {
    const currency = orderCurrencySql(yield* dialect());
    for (const { amount, currency: wanted } of search.amounts) {
      lookups.push([null, statusJoin, `s.amount = ? AND ${currency} = ?`, [amount, search.defaultCurrency, wanted]]);
    }
  }
  const byAmount: SearchRow[] = [];
  for (const [matched, joins, condition, values] of lookups) {
    const { where, params } = filtered(condition, values, search);
    const rows = yield* all<SearchRow>(`SELECT ${ROW} FROM payment_search s${joins} WHERE ${where} ORDER BY s.at_ms DESC LIMIT ?`, ...params, search.limit);
    if (matched === null) byAmount.push(...rows);
    else found.push(...rows.map((row) => ({ ...row, matched })));
  }
  // What an amount is depends on its notification's outcome too, so each is read before the hits
  // are made one per order and kind: a declined approval never hides the payment that followed it.
  const details = yield* hitDetails([...found, ...byAmount].map((row) => [row.pg_cno, row.event_id] as const));
  found.push(...byAmount.map((row) => ({ ...row, matched: amountMatch(row.noti_type, details.get(row.event_id)?.resultCode ?? null) })));
  found.sort((a, b) => Number(b.at_ms) - Number(a.at_ms));
  const hits = new Map<string, SearchRow & { matched: SearchMatch }>();
  for (const row of found) {
    const key = `${row.matched} ${orderKeyText({ mallId: row.mall_id, shopOrderNo: row.shop_order_no })}`;
    if (!hits.has(key)) hits.set(key, row);
  }
  const records = yield* recordsOf([...hits.values()].map((row) => [row.mall_id, row.shop_order_no] as const));
  // A cancel's notification names no card: its payment's (the order's payment of its pgCno) does.
  const paidBy = (order: OrderRecord, row: SearchRow) => order.payments.find((p) => p.pgCno === row.pg_cno && p.eventId !== row.event_id);
  const located = [...hits.values()].flatMap((row) => {
    const order = records.get(orderKeyText({ mallId: row.mall_id, shopOrderNo: row.shop_order_no }));
    return order ? [{ row, order }] : [];
  });
  const paymentDetails = yield* hitDetails(located.flatMap(({ row, order }) => {
    const paid = details.get(row.event_id)?.cardLastFour == null ? paidBy(order, row) : undefined;
    return paid ? [[paid.pgCno, paid.eventId] as const] : [];
  }));
  const result: PaymentHit[] = located.map(({ row, order }) => ({ order, matched: row.matched, payment: {
    eventId: row.event_id, notiType: row.noti_type, pgCno: row.pg_cno, approvalNo: row.approval_no,
    amount: row.amount === null ? null : Number(row.amount), method: row.method, at: new Date(Number(row.at_ms)).toISOString(),
    cardLastFour: details.get(row.event_id)?.cardLastFour ?? paymentDetails.get(paidBy(order, row)?.eventId ?? '')?.cardLastFour ?? null,
  } }));
  // An order known by its number with no notification yet (an expectation alone) is found too,
  // when no filter asks about a payment.
  if (search.key !== null && search.method === undefined && search.fromMs === undefined && search.toMs === undefined) {
    const rows = yield* all<StoredRecordRow>(
      `SELECT ${recordColumns(yield* dialect(), 'o')} FROM ledger_orders o WHERE o.shop_order_no = ? AND o.record_json IS NOT NULL${search.status ? ' AND o.status = ?' : ''} ORDER BY o.mall_id LIMIT ?`,
      ...[search.key, ...(search.status ? [search.status] : []), search.limit],
    );
    for (const row of rows) {
      const order = storedOrderRecord(row)!;
      if (!result.some((hit) => hit.order.mallId === order.mallId && hit.order.shopOrderNo === order.shopOrderNo)) result.push({ order, matched: 'shopOrderNo', payment: null });
    }
  }
  return result;
}

/**
 * An amount is found only in its own currency's orders: 1200000 is $12,000.00 in a dollar order
 * and ₩1,200,000 in a won order. The order's currency is its expectation's, read from its record
 * (found by its key), else the mall's default.
 */
const orderCurrencySql = (sql: Dialect) => `COALESCE(
    (SELECT ${jsonField(sql, 'r.record_json', ['expected', 'currency'])} FROM ledger_orders r WHERE r.shop_order_no = s.shop_order_no AND r.mall_id = s.mall_id), ?)`;

function amountMatch(notiType: string, resultCode: string | null): SearchMatch {
  // Event 51 carries the bank's failure code in resCd: a failed refund, whatever the code.
  if (notiType === '51') return 'refundFailedAmount';
  if (resultCode !== null && resultCode !== '0000') return 'declinedAmount';
  return CANCEL_TYPES.has(notiType) ? 'cancelAmount' : 'amount';
}

function filtered(condition: string, values: readonly Param[], search: PaymentSearch): { where: string; params: Param[] } {
  const conditions = [condition];
  const params: Param[] = [...values];
  if (search.method !== undefined) {
    conditions.push('s.method = ?');
    params.push(search.method);
  }
  if (search.fromMs !== undefined) {
    conditions.push('s.at_ms >= ?');
    params.push(search.fromMs);
  }
  if (search.toMs !== undefined) {
    conditions.push('s.at_ms < ?');
    params.push(search.toMs);
  }
  if (search.status !== undefined) {
    conditions.push('o.status = ?');
    params.push(search.status);
  }
  return { where: conditions.join(' AND '), params };
}

/** The records of the orders named, by ledger_orders' unique key, one lookup each. */
function* recordsOf(orders: ReadonlyArray<readonly [string, string]>): Procedure<Map<string, OrderRecord>> {
  const records = new Map<string, OrderRecord>();
  const sql = yield* dialect();
  const distinct = [...new Map(orders.map(([mallId, no]) => [orderKeyText({ mallId, shopOrderNo: no }), [mallId, no] as const])).values()];
  for (let i = 0; i < distinct.length; i += 50) {
    const chunk = distinct.slice(i, i + 50);
    const rows = yield* all<StoredRecordRow & { mall_id: string; shop_order_no: string }>(
      `SELECT o.mall_id, o.shop_order_no, ${recordColumns(sql, 'o')} FROM ledger_orders o WHERE ${chunk.map(() => '(o.shop_order_no = ? AND o.mall_id = ?)').join(' OR ')}`,
      ...chunk.flatMap(([mallId, no]) => [no, mallId]),
    );
    for (const row of rows) if (row.record_json) records.set(orderKeyText({ mallId: row.mall_id, shopOrderNo: row.shop_order_no }), storedOrderRecord(row)!);
  }
  return records;
}
