import type { LedgerFact } from '../../src/ledger/fold/ledger-facts';
import { storeLedgerInputs } from '../../src/ledger/sql/ledger-inputs';
import type { OrderFact } from '../../src/ledger/projection/loaded-order';
import type { GatewayTransactionRow } from '../../src/reconciliation/file/gateway-rows';
import { storeImportPage } from '../../src/reconciliation/sql/store-import';
import type { Procedure } from '../../src/store/procedures/procedure';
import { describePostgres } from '../store/pg-test-database';
import { postgresRunner, sqliteRunner, type ProcedureRunner } from '../store/procedure-runners';
import { MALL } from './reconciliation-harness';

/** The procedure as it runs, with the parameter count of each statement it sends kept in `sent`. */
function* recorded<T>(procedure: Procedure<T>, sent: Array<{ sql: string; params: number }>): Procedure<T> {
  let step = procedure.next();
  while (!step.done) {
    const statements = step.value.mode === 'trip' ? step.value.statements : 'sql' in step.value ? [step.value] : [];
    for (const { sql, params } of statements) sent.push({ sql: sql.replace(/\s+/g, ' ').slice(0, 40), params: params.length });
    step = procedure.next(yield step.value);
  }
  return step.value;
}

const ROWS = 2000;
const row = (i: number): GatewayTransactionRow => ({
  line: i + 2, pgCno: `PG-PAGE-${i}`, cancelPgCno: i % 3 === 0 ? `PG-PAGE-C${i}` : null, kind: i % 3 === 0 ? 'cancel' : 'payment',
  shopOrderNo: `ORD-PAGE-${i}`, approvalNo: i % 2 === 0 ? null : `3000${i}`, amount: 1000 + i, cancelledAmount: i % 4 === 0 ? null : i,
  at: new Date(Date.UTC(2026, 10, 19, 15, 0, i)).toISOString(), status: i % 3 === 0 ? 'cancelled' : 'approved', statusText: '승인', method: i % 5 === 0 ? null : '신용카드',
});
const fact = (i: number): OrderFact => {
  const recordedAt = new Date(Date.UTC(2026, 10, 21, 3, 0, 0, i)).toISOString();
  return { order: { mallId: MALL, shopOrderNo: `ORD-PAGE-${(i * 7) % ROWS}` }, fact: { recordedAt } as LedgerFact, json: JSON.stringify({ kind: 'gateway_listing', n: i, recordedAt, note: '한글 "따옴표"' }) };
};

/**
 * An import's page (store-import.ts): every row and every ledger input stored as given, the inputs'
 * seqs in the order given. PostgreSQL takes each as one statement over one JSON parameter,
 * whatever the page's size, where a VALUES list of a page is tens of thousands of parameters,
 * parsed and planned at each page.
 */
function importPageContract(open: () => Promise<ProcedureRunner>, oneParameterEach: boolean): void {
  let runner: ProcedureRunner;
  beforeEach(async () => (runner = await open()));
  afterEach(async () => runner.close());

  test('a page of 2,000 rows is stored as given', async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => ({ row: row(i), shopOrderNo: i % 9 === 0 ? null : `ORD-PAGE-${i}` }));
    const sent: Array<{ sql: string; params: number }> = [];
    await runner.transaction(recorded(storeImportPage({ importId: 'gwi_page', mallId: MALL, rows, facts: [] }), sent));
    const inserts = sent.filter((s) => s.sql.startsWith('INSERT INTO reconciliation_rows'));
    if (oneParameterEach) expect(inserts).toEqual([expect.objectContaining({ params: 1 })]);
    const stored = await runner.rows(`SELECT import_id, line, mall_id, day, shop_order_no, kind, pg_cno, cancel_pg_cno, amount, cancelled_amount, status,
      status_text, at, method, approval_no FROM reconciliation_rows ORDER BY line`);
    expect(stored.map((r) => ({ ...r, amount: Number(r.amount), cancelled_amount: r.cancelled_amount === null ? null : Number(r.cancelled_amount), line: Number(r.line) }))).toEqual(rows.map(({ row: r, shopOrderNo }) => ({
      import_id: 'gwi_page', line: r.line, mall_id: MALL, day: '2026-11-20', shop_order_no: shopOrderNo, kind: r.kind, pg_cno: r.pgCno, cancel_pg_cno: r.cancelPgCno,
      amount: r.amount, cancelled_amount: r.cancelledAmount, status: r.status, status_text: r.statusText, at: r.at, method: r.method, approval_no: r.approvalNo,
    })));
  });

  test("a page's ledger inputs are stored as given, their seqs in the order given", async () => {
    const facts = Array.from({ length: 1000 }, (_, i) => fact(i));
    const sent: Array<{ sql: string; params: number }> = [];
    const last = await runner.transaction(recorded(storeLedgerInputs(facts), sent));
    const inserts = sent.filter((s) => s.sql.startsWith('INSERT INTO ledger_inputs'));
    if (oneParameterEach) expect(inserts).toEqual([expect.objectContaining({ params: 1 })]);
    const stored = await runner.rows('SELECT seq, mall_id, shop_order_no, fact_json, recorded_at FROM ledger_inputs ORDER BY seq');
    expect(Number(stored.at(-1)!.seq)).toBe(last);
    expect(stored.map(({ seq: _seq, ...r }) => r)).toEqual(facts.map((f) => ({ mall_id: MALL, shop_order_no: f.order.shopOrderNo, fact_json: f.json, recorded_at: f.fact.recordedAt })));
  });
}

describe("an import's page on SQLite", () => {
  importPageContract(async () => sqliteRunner(), false);
});

describePostgres("an import's page on PostgreSQL", () => {
  importPageContract(postgresRunner, true);
});
