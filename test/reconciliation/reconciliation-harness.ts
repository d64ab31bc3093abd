import type { GatewayTransactionRow, ReadResult } from '../../src/reconciliation/file/gateway-rows';
import { importGatewayList, type ImportOutcome } from '../../src/reconciliation/import/import-list';
import { kstDay } from '../../src/ledger/summary/kst-day';
import type { Stores } from '../../src/ledger/projector/open-stores';

export const MALL = 'T0001234';

/**
 * Until the reader of the portal's files is wired, a list's bytes are its rows as JSON: the
 * import's id is still the SHA-256 of the bytes, and everything after the read is the real import.
 */
export const listBytes = (rows: GatewayTransactionRow[]): Buffer => Buffer.from(JSON.stringify(rows), 'utf8');

export async function readJsonList(bytes: Buffer): Promise<ReadResult<GatewayTransactionRow>> {
  const rows = JSON.parse(bytes.toString('utf8')) as GatewayTransactionRow[];
  const days = rows.map((r) => kstDay(r.at)).sort();
  return { ok: true, kind: 'transactions', rows, firstDay: days[0]!, lastDay: days.at(-1)!, mapping: {}, skipped: [] };
}

export function importList(stores: Stores, rows: GatewayTransactionRow[], at: Date, fileName = 'transactions.xlsx'): Promise<ImportOutcome> {
  return importGatewayList(
    { reconciliation: stores.reconciliation, ledger: stores.ledger, read: readJsonList },
    { bytes: listBytes(rows), fileName, mallId: MALL, actor: 'tester (test)', at: at.toISOString(), matchWaitMs: 20_000 },
  );
}

/** A row as the reader gives it. */
export function listedRow(o: Omit<Partial<GatewayTransactionRow>, 'at'> & { line: number; pgCno: string; amount: number; at: Date; shopOrderNo: string }): GatewayTransactionRow {
  return {
    cancelPgCno: null, kind: 'payment', approvalNo: null, cancelledAmount: null, status: 'approved', statusText: '승인', method: '신용카드',
    ...o, at: o.at.toISOString(),
  };
}
