import type { Pool, PoolClient } from 'pg';
import { openPostgresStore } from '../../src/store/postgres/postgres-store';
import { createPool } from '../../src/store/postgres/pool';
import { runProcedure } from '../../src/store/postgres/run-procedure';
import { storeImportPage } from '../../src/reconciliation/sql/store-import';
import { storeLedgerInputs } from '../../src/ledger/sql/ledger-inputs';
import type { Store } from '../../src/store/store';
import { inboxEntry } from '../helpers/stored-events';
import { createTestSchema, describePostgres, type TestSchema } from './pg-test-database';

const MALL = 'T0001';
const listing = (shopOrderNo: string) => ({
  order: { mallId: MALL, shopOrderNo },
  fact: { kind: 'gateway_listing', id: `listing-${shopOrderNo}`, importId: 'imp-1', firstDay: '2026-11-20', lastDay: '2026-11-20', listsCancels: false, rows: [], recordedAt: '2026-11-21T00:00:00.000Z' },
}) as never;

/** Resolves once `pid`'s backend waits for a lock. */
async function waitingForLock(pool: Pool, pid: number): Promise<void> {
  for (;;) {
    const { rows } = await pool.query<{ waiting: boolean }>(`SELECT wait_event_type = 'Lock' AS waiting FROM pg_stat_activity WHERE pid = $1`, [pid]);
    if (rows[0]?.waiting) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describePostgres("ledger inputs' order on PostgreSQL", () => {
  let schema: TestSchema;
  let store: Store;
  let pool: Pool;
  const open: PoolClient[] = [];

  beforeEach(async () => {
    schema = await createTestSchema();
    store = await openPostgresStore(schema.url);
    pool = createPool(schema.url, {});
  });
  afterEach(async () => {
    for (const client of open.splice(0)) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
    await pool.end();
    await store.close();
    await schema.drop();
  });

  const transaction = async () => {
    const client = await pool.connect();
    open.push(client);
    await client.query('BEGIN');
    return client;
  };

  test("an import's page still uncommitted holds up no ack, and a later write of inputs waits for it", async () => {
    const page = await transaction();
    await runProcedure(page, 'storeImportPage', storeImportPage({ importId: 'imp-1', mallId: MALL, rows: [], facts: [listing('ORD-1'), listing('ORD-2')] }), { outboxChanged: false });

    // The ack commits while the page's transaction is open (it took the outbox's lock before: the ack waited for the page).
    await expect(store.record(inboxEntry({ pgCno: 'PG-ACK-1' }))).resolves.toMatchObject({ outcome: 'accepted' });

    // Another transaction adding inputs waits for the page's commit, so seqs commit in the order drawn.
    const other = await transaction();
    const otherPid = (await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const later = runProcedure(other, 'storeLedgerInputs', storeLedgerInputs([listing('ORD-3')]), { outboxChanged: false });
    await waitingForLock(pool, otherPid);
    await page.query('COMMIT');
    await later;
    await other.query('COMMIT');

    const { rows } = await pool.query<{ shop_order_no: string }>('SELECT shop_order_no FROM ledger_inputs ORDER BY seq');
    expect(rows.map((r) => r.shop_order_no)).toEqual(['ORD-1', 'ORD-2', 'ORD-3']);
  });
});
