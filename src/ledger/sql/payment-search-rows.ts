import { minorUnits } from '../fold/minor-units';
import { jsonRows } from '../../store/procedures/json-rows';
import { changes, ladderRowInserts, sqlBySize, valueRows, type Dialect, type Param, type Statement } from '../../store/procedures/procedure';

const COLUMNS = 9;
/** The gateway's payMethodTypeCode of a virtual account. */
const VIRTUAL_ACCOUNT = '22';
const INSERT = sqlBySize((rows) => `INSERT INTO payment_search (shop_order_no, mall_id, event_id, noti_type, pg_cno, approval_no, amount, method, at_ms)
  VALUES ${valueRows(rows, COLUMNS)} ON CONFLICT DO NOTHING`);
const PG_ROWS = jsonRows([['shop_order_no', 'text'], ['mall_id', 'text'], ['event_id', 'text'], ['noti_type', 'text'], ['pg_cno', 'text'],
  ['approval_no', 'text'], ['amount', 'bigint'], ['method', 'text'], ['at_ms', 'bigint']]);
const PG_INSERT = `INSERT INTO payment_search (shop_order_no, mall_id, event_id, noti_type, pg_cno, approval_no, amount, method, at_ms)
  SELECT r.shop_order_no, r.mall_id, r.event_id, r.noti_type, r.pg_cno, r.approval_no, r.amount, r.method, r.at_ms FROM ${PG_ROWS.from} AS r
  ON CONFLICT DO NOTHING`;

/**
 * The console search's rows (migration 021) for the gateway notifications a projector batch read:
 * one per notification that names an order, with what a person searches a payment by (pgCno,
 * approval number, amount, method, the event's own time), never personal data. Written in the
 * projector's transaction, so the ack's commit writes nothing more than before. The events come as
 * the projector parsed them (once, for the ledger's facts too); one that does not parse is not
 * among them, and the ledger marks its order.
 */
export function paymentSearchWrites(storedEvents: readonly unknown[], dialect: Dialect): Statement[] {
  const rows: Param[][] = [];
  for (const event of storedEvents) {
    const row = searchRow(event);
    if (row !== null) rows.push(row);
  }
  if (rows.length === 0) return [];
  return dialect === 'postgres' ? [changes(PG_INSERT, PG_ROWS.rowsParam(rows))] : ladderRowInserts(INSERT, COLUMNS, rows);
}

function searchRow(parsed: unknown): Param[] | null {
  if (typeof parsed !== 'object' || parsed === null) return null;
  const event = parsed as Record<string, unknown>;
  const { id, notiType, mallId, pgCno, shopOrderNo, amount, occurredAt, receivedAt } = event;
  if (typeof shopOrderNo !== 'string' || typeof mallId !== 'string' || typeof id !== 'string' || typeof pgCno !== 'string') return null;
  const atMs = Date.parse(String(occurredAt ?? receivedAt));
  if (Number.isNaN(atMs)) return null;
  const data = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as Record<string, unknown>;
  return [
    shopOrderNo, mallId, id, String(notiType), pgCno,
    textOf(data.approvalNo),
    searchedAmount(String(notiType), typeof amount === 'number' && Number.isSafeInteger(amount) ? amount : null, data),
    // A deposit (30, 31) is a virtual account's even when the body names no method.
    textOf(data.payMethodTypeCode) ?? textOf(data.pay_type) ?? (notiType === '30' || notiType === '31' ? VIRTUAL_ACCOUNT : null),
    atMs,
  ];
}

/**
 * The amount a person finds the notification by: the money it moved, read as the ledger reads it
 * (notification-fact.ts, order-cancels.ts). A cancel's is its own cancelAmount before the body's
 * amount, so a cancel is never found by the payment's amount; a deposit or a refund that names its
 * amount after what it is has that one.
 */
function searchedAmount(notiType: string, amount: number | null, data: Record<string, unknown>): number | null {
  if (notiType === '20' || notiType === '50') return minorUnits(data.cancelAmount) ?? amount ?? (notiType === '50' ? minorUnits(data.refundAmount) : null);
  if (notiType === '30' || notiType === '40') return amount ?? minorUnits(data.depositAmount);
  if (notiType === '51') return amount ?? minorUnits(data.refundAmount);
  return amount;
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
