import { DEFAULT_LEDGER_SETTINGS } from '../../src/config/ledger-settings';
import { openStores } from '../../src/ledger/projector/open-stores';
import { randomBytes } from 'node:crypto';
import { cancelled, paid } from './ledger-entries';
import { admin, describePostgres, TEST_POSTGRES_URL } from './pg-test-database';

/** The tables a projector batch updates in place (migration 029 leaves room on their pages). */
const TABLES = ['ledger_orders', 'ledger_fold_positions', 'ledger_projector', 'summary_daily'];
const ORDERS = 40;
const ROUNDS = 8;

type Counts = Record<string, { updates: number; hot: number }>;

/**
 * The tables' update counts once the store's connections have reported them: PostgreSQL counts a
 * backend's updates in its memory and reports them when idle (at most once a second) or as it
 * exits. Each projector batch moves the position row once and its generation by one, so the counts
 * are complete once the position row's updates reach the generation the batches left.
 */
async function reportedCounts(url: string, since: Counts | null): Promise<Counts> {
  const generation = Number((await admin(url, 'SELECT generation FROM ledger_projector'))[0]!.generation);
  for (;;) {
    const rows = await admin(url, `SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
      WHERE schemaname = current_schema() AND relname = ANY($1)`, [TABLES]);
    const counts: Counts = {};
    for (const row of rows) {
      const before = since?.[row.relname as string] ?? { updates: 0, hot: 0 };
      counts[row.relname as string] = { updates: Number(row.n_tup_upd) - before.updates, hot: Number(row.n_tup_hot_upd) - before.hot };
    }
    const positionUpdates = Number(rows.find((row) => row.relname === 'ledger_projector')?.n_tup_upd ?? 0);
    if (positionUpdates >= generation) return counts;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describePostgres('updates in place by the projector on PostgreSQL', () => {
  // A database of its own, not a schema in the shared one: PostgreSQL prunes a page's dead row
  // versions (the room a HOT update needs) only once no transaction of the same database may still
  // see them, and other suites' transactions in the shared database would hold them on the pages.
  const schema = { url: '' };
  let name = '';
  beforeEach(async () => {
    name = `hot_${randomBytes(6).toString('hex')}`;
    await admin(TEST_POSTGRES_URL!, `CREATE DATABASE ${name}`);
    const url = new URL(TEST_POSTGRES_URL!);
    url.pathname = `/${name}`;
    url.searchParams.set('connect_timeout', '15');
    schema.url = url.toString();
  });
  afterEach(async () => void (await admin(TEST_POSTGRES_URL!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));

  test('are HOT: an input that leaves an order its status rewrites its record, checkpoint, totals and the position on their own pages', async () => {
    const open = () => openStores(schema.url, { ledger: DEFAULT_LEDGER_SETTINGS, projector: { pollMs: 20 } });
    const each = (make: (i: number) => ReturnType<typeof paid>) => Array.from({ length: ORDERS }, (_, i) => make(i));
    let stores = await open();
    try {
      // Orders enough to fill pages, each paid and cancelled once: every order partially cancelled.
      await Promise.all(each((i) => paid(`ORD-HOT-${i}`, `PG-HOT-${i}`, 1_000_000, 0)).map((entry) => stores.store.record(entry)));
      await stores.ledger.caughtUp();
      await Promise.all(each((i) => cancelled(`ORD-HOT-${i}`, `PG-HOT-${i}`, `PG-HOT-${i}-C0`, 1000, 1, 999_000)).map((entry) => stores.store.record(entry)));
      await stores.ledger.caughtUp();
    } finally {
      await stores.store.close();
    }
    const seeded = await reportedCounts(schema.url, null);

    // Then more partial cancels of each: the status stays; the record, its checkpoint and the day's totals change.
    stores = await open();
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        // One batch each, as a live gateway's notifications of many orders come: a batch updates one
        // of a page's orders, not all of them (the room of a page is for the next versions of a few).
        for (const entry of each((i) => cancelled(`ORD-HOT-${i}`, `PG-HOT-${i}`, `PG-HOT-${i}-C${round}`, 1000, 1 + round, 999_000 - 1000 * round))) {
          await stores.store.record(entry);
          await stores.ledger.caughtUp();
        }
      }
      await expect(stores.ledger.getOrder({ mallId: 'T0001234', shopOrderNo: 'ORD-HOT-0' })).resolves.toMatchObject({ status: 'partially_cancelled', cancelled: 1000 * (ROUNDS + 1) });
    } finally {
      await stores.store.close();
    }
    const counts = await reportedCounts(schema.url, seeded);

    const shares = TABLES.map((table) => ({ table, updates: counts[table]!.updates, hotShare: Math.round((100 * counts[table]!.hot) / Math.max(1, counts[table]!.updates)) }));
    expect(counts.ledger_orders!.updates).toBeGreaterThanOrEqual(ORDERS * ROUNDS);
    for (const table of ['ledger_fold_positions', 'ledger_projector', 'summary_daily']) expect({ table, updates: counts[table]!.updates > 0 }).toEqual({ table, updates: true });
    // Most: a row that finds no room moves once, onto a page with room, and is HOT from there on;
    // without migration 029's room, fewer of the orders' and checkpoints' updates are.
    expect(shares.filter(({ hotShare }) => hotShare < 80)).toEqual([]);
  }, 120_000);
});
