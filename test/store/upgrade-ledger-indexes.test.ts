import { DEFAULT_LEDGER_SETTINGS } from '../../src/config/ledger-settings';
import { readMigrations } from '../../src/store/migrations';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { writes } from '../../src/store/procedures';
import { inboxRow } from '../../src/store/procedures/inbox-outbox/inbox-row';
import { ledgerFactOf } from '../../src/ledger/fold/stored-fact';
import { applyOrderFacts } from '../../src/ledger/sql/apply-order-facts';
import { expectationFact } from '../../src/ledger/fold/expectation-fact';
import type { LedgerFact } from '../../src/ledger/fold/ledger-facts';
import { cancelled, MALL, minute, paid } from './ledger-entries';
import { admin, describePostgres } from './pg-test-database';
import { postgresAtVersion, sqliteAtVersion, type OlderReleaseDatabase, type Row } from './older-release-database';
import { EXPECTED_LEDGER_INDEXES, LEDGER_TABLES, postgresIndexes, sqliteIndexes } from './schema-indexes';

/** Migration 011 rebuilt (SQLite) or re-indexed (PostgreSQL) ledger_orders. */
const BEFORE_LEAN_LEDGER = 10;
const OTHER_MALL = 'T0009999';

/** A database the release with migration 010 left behind, and the current stores opened on it. */
interface OldDatabase extends OlderReleaseDatabase {
  indexes(): Promise<string[]>;
  /** Opening migrates, as the service does at start. */
  openStores(): Promise<Stores>;
}

function upgradeContract(openOld: () => Promise<OldDatabase>): void {
  let old: OldDatabase;
  let stores: Stores | null = null;
  beforeEach(async () => {
    old = await openOld();
  });
  afterEach(async () => {
    await stores?.store.close();
    stores = null;
    await old.cleanup();
  });

  const ledger = DEFAULT_LEDGER_SETTINGS;
  // What the release with migration 010 wrote in an ack's transaction: the notification, and its
  // fact and the order's record (that release computed the ledger there; this one's projector is
  // behind the ack, and its table does not exist yet at version 10).
  const record = async (entry: ReturnType<typeof paid>) => {
    await old.write(writes.recordNotification(inboxRow(entry)));
    const json = ledgerFactOf(entry.event)!;
    await old.write(applyOrderFacts([{ order: { mallId: entry.event.mallId, shopOrderNo: entry.event.shopOrderNo! }, fact: JSON.parse(json) as LedgerFact, json }], { now: entry.event.receivedAt, settings: ledger }));
  };
  /** Orders first seen out of their numbers' order, one number in two malls, several facts, a discrepancy, an expectation. */
  async function fill(): Promise<void> {
    await record(paid('ORD-U3', 'PG-U3', 30000, 0));
    await record(paid('ORD-U1', 'PG-U1', 10000, 1));
    await record(paid('ORD-U2', 'PG-U2A', 5000, 2));
    await record(paid('ORD-U2', 'PG-U2B', 5000, 3));
    await record(paid('ORD-U1', 'PG-U1X', 7000, 4, OTHER_MALL));
    await record(cancelled('ORD-U3', 'PG-U3', 'PG-U3C', 10000, 5, 20000));
    const u0 = { mallId: MALL, shopOrderNo: 'ORD-U0' };
    await old.write(applyOrderFacts([{ order: u0, fact: expectationFact(u0, { amount: 1000, currency: 'KRW', method: 'vaccount', expiresAt: null }, minute(6)) }], { now: minute(6), settings: ledger }));
  }

  const snapshot = async () => ({
    orders: await old.rows('SELECT * FROM ledger_orders ORDER BY order_id'),
    facts: await old.rows('SELECT * FROM ledger_facts ORDER BY order_id, id'),
    discrepancies: await old.rows('SELECT * FROM ledger_discrepancies ORDER BY id'),
  });
  const firstSeen = ['ORD-U3', 'ORD-U1', 'ORD-U2', 'ORD-U1', 'ORD-U0'];

  test('every order keeps its order_id, its record and its facts, and only the new indexes remain', async () => {
    await fill();
    const before = await snapshot();
    expect(before.orders.map((row) => row.shop_order_no)).toEqual(firstSeen);
    expect(before.facts).toHaveLength(7);
    expect(before.discrepancies).toEqual([expect.objectContaining({ shop_order_no: 'ORD-U2', kind: 'duplicate_payment' })]);

    stores = await old.openStores();
    // Migration 028 adds the day each order's status counts from in the day's money: none for an order the summary never counted.
    expect(await snapshot()).toEqual({ ...before, orders: before.orders.map((row) => ({ ...row, summary_day: null })) });
    await expect(old.indexes()).resolves.toEqual(EXPECTED_LEDGER_INDEXES);
  });

  test('after the upgrade the orders are found, updated in place, listed as first seen and rebuilt unchanged', async () => {
    await fill();
    const before = await snapshot();
    stores = await old.openStores();

    await expect(stores.ledger.findOrders('ORD-U1')).resolves.toEqual([
      expect.objectContaining({ mallId: MALL, approved: 10000 }), expect.objectContaining({ mallId: OTHER_MALL, approved: 7000 }),
    ]);
    await stores.store.record(cancelled('ORD-U1', 'PG-U1', 'PG-U1C', 10000, 7, 0));
    await stores.store.record(paid('ORD-U4', 'PG-U4', 4000, 8));
    // The projector applies them behind the acks.
    await stores.ledger.caughtUp();
    const after = await snapshot();
    const idOf = (rows: Row[], mallId: string, no: string) => rows.find((row) => row.mall_id === mallId && row.shop_order_no === no)?.order_id;
    expect(idOf(after.orders, MALL, 'ORD-U1')).toEqual(idOf(before.orders, MALL, 'ORD-U1'));
    expect(after.orders.at(-1)).toMatchObject({ shop_order_no: 'ORD-U4', status: 'paid' });
    expect(Number(after.orders.at(-1)!.order_id)).toBeGreaterThan(Number(before.orders.at(-1)!.order_id));
    await expect(stores.ledger.getOrder({ mallId: MALL, shopOrderNo: 'ORD-U1' })).resolves.toMatchObject({ status: 'cancelled', remaining: 0 });

    const page = await stores.ledger.listOrders({ limit: 3 });
    const rest = await stores.ledger.listOrders({ limit: 3, after: page.last! });
    expect([...page.orders, ...rest.orders].map((o) => o.shopOrderNo)).toEqual([...firstSeen, 'ORD-U4']);
    await expect(stores.ledger.rebuildPage(null, 100, minute(9))).resolves.toEqual({ orders: 6, changed: 0, next: null });
  });
}

test('migration 011 is announced on both databases: the SQLite copy takes a while on a large ledger', () => {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    expect(readMigrations(dialect).find((m) => m.version === 11)?.announce).toMatch(/ledger/);
  }
});

describe('upgrading a SQLite ledger from migration 010', () => {
  upgradeContract(async () => {
    const old = sqliteAtVersion(BEFORE_LEAN_LEDGER);
    return { ...old, indexes: async () => sqliteIndexes(old.db, LEDGER_TABLES), openStores: () => openStores(`sqlite:${old.file}`) };
  });
});

describePostgres('upgrading a PostgreSQL ledger from migration 010', () => {
  upgradeContract(async () => {
    const old = await postgresAtVersion(BEFORE_LEAN_LEDGER);
    return { ...old, indexes: () => postgresIndexes((sql, params) => admin(old.url, sql, params), LEDGER_TABLES), openStores: () => openStores(old.url) };
  });
});
