import type { SettlementRow } from '../file/gateway-rows';
import { changes, dialect, ladderRowInserts, oneTrip, columnArrays, type Param, type Procedure, type Statement } from '../../store/procedures/procedure';

const COLUMNS = ['import_id', 'mall_id', 'line', 'pg_cno', 'cancel_pg_cno', 'shop_order_no', 'gross', 'fee', 'fee_vat', 'payout', 'payout_day', 'transaction_day'] as const;
const PG_TYPES = ['text', 'text', 'integer', 'text', 'text', 'text', 'bigint', 'bigint', 'bigint', 'bigint', 'text', 'text'];
const INSERT = `INSERT INTO settlement_rows (${COLUMNS.join(', ')})`;
const sqliteInsert = (rows: number) => `${INSERT} VALUES ${Array.from({ length: rows }, () => `(${COLUMNS.map(() => '?').join(', ')})`).join(', ')}`;

/**
 * Stores the settlement statement rows of one import of one mall, replacing whatever that import
 * stored before: storing the same import again (a retry, a second click) leaves one copy of its
 * rows, so no fee or payout counts twice. Answers how many rows the import holds.
 */
export function* putSettlementRows(importId: string, mallId: string, rows: readonly SettlementRow[]): Procedure<{ rows: number }> {
  const values = rows.map((r): Param[] => [importId, mallId, r.line, r.pgCno, r.cancelPgCno, r.shopOrderNo, r.gross, r.fee, r.feeVat, r.payout, r.payoutDay, r.transactionDay]);
  const inserts: Statement[] = values.length === 0 ? []
    : (yield* dialect()) === 'postgres'
      ? [changes(`${INSERT} SELECT * FROM unnest(${PG_TYPES.map((t) => `?::${t}[]`).join(', ')})`, ...columnArrays(values, COLUMNS.length))]
      : ladderRowInserts(sqliteInsert, COLUMNS.length, values);
  yield* oneTrip(changes('DELETE FROM settlement_rows WHERE import_id = ?', importId), ...inserts);
  return { rows: values.length };
}
