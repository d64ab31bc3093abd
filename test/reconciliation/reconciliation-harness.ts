import type { GatewayTransactionRow, ReadResult, SettlementRow } from '../../src/reconciliation/file/gateway-rows';
import { readGatewayList } from '../../src/reconciliation/file/read-gateway-list';
import { importGatewayList, type ImportOutcome } from '../../src/reconciliation/import/import-list';
import { kstDay } from '../../src/ledger/summary/kst-day';
import type { OrderRecord } from '../../src/ledger/fold/order-record';
import type { Stores } from '../../src/ledger/projector/open-stores';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { startLedgerApp, type LedgerApp } from '../ledger/ledger-app-harness';
import { createTestSchema, TEST_POSTGRES_URL } from '../store/pg-test-database';
import { LIMITS } from './file/list-files';

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

/** The databases a reconciliation suite runs on: SQLite always, PostgreSQL when TEST_POSTGRES_URL is set. */
export const DATABASES: Array<[string, boolean]> = [['SQLite', true], ['PostgreSQL', TEST_POSTGRES_URL !== undefined]];

/** A test's own store on the named database: SQLite's default, or a PostgreSQL schema of its own, dropped after the test. */
export async function testDatabase(name: string): Promise<{ url: { databaseUrl?: string }; drop: () => Promise<void> }> {
  if (name !== 'PostgreSQL') return { url: {}, drop: async () => undefined };
  const schema = await createTestSchema();
  return { url: { databaseUrl: schema.url }, drop: () => schema.drop() };
}

/** A ledger app on its own store of the named database for each test of the suite, closed and dropped after it: the getter answers the running test's. */
export function appPerTest(name: string): () => LedgerApp {
  let app: LedgerApp;
  let db: Awaited<ReturnType<typeof testDatabase>>;
  beforeEach(async () => {
    db = await testDatabase(name);
    app = await startLedgerApp(db.url);
  });
  afterEach(async () => {
    await app.close();
    await db.drop();
  });
  return () => app;
}

/** The reader as the import runs it, on a real file's bytes. */
export const readFile = (bytes: Buffer, fileName: string) =>
  readGatewayList(bytes, fileName, LIMITS) as Promise<ReadResult<GatewayTransactionRow | SettlementRow>>;

/** An order's payment notified to the app of the test, and its record as the internal API answers it. */
export function orderOf(app: () => LedgerApp) {
  return {
    approve: (shopOrderNo: string, pgCno: string, amount: number, when: Date) =>
      app().notify(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: String(amount), transactionDate: kstStamp(when) })).expect(200),
    record: async (shopOrderNo: string): Promise<OrderRecord> => (await app().api.get(`/v1/orders/${MALL}/${shopOrderNo}`).expect(200)).body as OrderRecord,
  };
}

/** The kinds of the record's open discrepancies, sorted. */
export const openKinds = (r: OrderRecord): string[] => r.discrepancies.filter((d) => d.resolvedAt === null).map((d) => d.kind).sort();
