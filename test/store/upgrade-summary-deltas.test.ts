import { DEFAULT_LEDGER_SETTINGS } from '../../src/config/ledger-settings';
import { readMigrations } from '../../src/store/migrations';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { writes } from '../../src/store/procedures';
import { inboxRow } from '../../src/store/procedures/inbox-outbox/inbox-row';
import { ledgerFactOf } from '../../src/ledger/fold/stored-fact';
import { applyOrderFacts } from '../../src/ledger/sql/apply-order-facts';
import { bookingsOf } from '../../src/ledger/summary/order-bookings';
import { storedKind } from '../../src/ledger/sql/summary/stored-kind';
import type { LedgerFact } from '../../src/ledger/fold/ledger-facts';
import type { OrderRecord } from '../../src/ledger/fold/order-record';
import { cancelled, MALL, paid } from './ledger-entries';
import { describePostgres } from './pg-test-database';
import { postgresAtVersion, sqliteAtVersion, type OlderReleaseDatabase } from './older-release-database';

/** The release before the day's money moved by deltas (migration 028). */
const BEFORE_DELTAS = 27;

interface OldDatabase extends OlderReleaseDatabase {
  openStores(): Promise<Stores>;
  tables(): Promise<string[]>;
  exec(sql: string): Promise<void>;
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

  const record = async (entry: ReturnType<typeof paid>) => {
    await old.write(writes.recordNotification(inboxRow(entry)));
    const json = ledgerFactOf(entry.event)!;
    await old.write(applyOrderFacts([{ order: { mallId: entry.event.mallId, shopOrderNo: entry.event.shopOrderNo! }, fact: JSON.parse(json) as LedgerFact, json }], { now: entry.event.receivedAt, settings: DEFAULT_LEDGER_SETTINGS }));
  };
  /** What the release before 028 kept per order beside the totals: its bookings, its event days, its status and the day it counts from. */
  const perOrderRows = async (shopOrderNo: string, statusDay: string | null, extraEventDay: string) => {
    const [row] = await old.rows(`SELECT record_json FROM ledger_orders WHERE shop_order_no = '${shopOrderNo}'`);
    const r = JSON.parse(String(row!.record_json)) as OrderRecord;
    for (const b of bookingsOf(r)) {
      await old.exec(`INSERT INTO summary_bookings VALUES ('${MALL}', '${shopOrderNo}', '${b.day}', '${b.currency}', '${storedKind(b.kind, b.simulated)}', '${b.method}', ${b.count}, ${b.amount})`);
    }
    await old.exec(`INSERT INTO summary_bookings VALUES ('${MALL}', '${shopOrderNo}', '${extraEventDay}', '', 'event', '', 1, 0)`);
    await old.exec(`INSERT INTO summary_order_status VALUES ('${MALL}', '${shopOrderNo}', '${r.status}', '', ${statusDay === null ? 'NULL' : `'${statusDay}'`})`);
  };

  test('the per-order tables go; the totals stay; each order keeps the day its status counts from and each day its orders; the next input moves the totals by its delta', async () => {
    await record(paid('ORD-D1', 'PG-D1', 12000, 0));
    await record(paid('ORD-D2', 'PG-D2', 5000, 1));
    // Counted from a later day (registered then, 025's rule), and one counted before 025 kept that day.
    await perOrderRows('ORD-D1', '2026-11-23', '2026-11-25');
    await perOrderRows('ORD-D2', null, '2026-11-21');
    const totals = await old.rows('SELECT day, mall_id, currency, kind, method, count, amount FROM summary_daily ORDER BY day, kind, method');
    expect(totals.length).toBeGreaterThan(0);

    stores = await old.openStores();
    expect((await old.tables()).filter((t) => t.startsWith('summary_')).sort()).toEqual(['summary_adjustments', 'summary_closes', 'summary_daily', 'summary_order_days']);
    expect(await old.rows('SELECT day, mall_id, currency, kind, method, count, amount FROM summary_daily ORDER BY day, kind, method')).toEqual(totals);
    expect(await old.rows('SELECT shop_order_no, summary_day FROM ledger_orders ORDER BY shop_order_no')).toEqual([
      { shop_order_no: 'ORD-D1', summary_day: '2026-11-23' },
      { shop_order_no: 'ORD-D2', summary_day: '' },
    ]);
    expect((await stores.ledger.dayOrders('2026-11-25', MALL, 10)).map((r) => r.shopOrderNo)).toEqual(['ORD-D1']);
    expect((await stores.ledger.dayOrders('2026-11-21', MALL, 10)).map((r) => r.shopOrderNo)).toEqual(['ORD-D1', 'ORD-D2']);

    // Cancelled, dated the 21st: it leaves `paid` no earlier than the 23rd, the day that status counted from.
    await stores.store.record(cancelled('ORD-D1', 'PG-D1', 'PG-D1C', 12000, 10, 0));
    await stores.store.record(cancelled('ORD-D2', 'PG-D2', 'PG-D2C', 5000, 11, 0));
    await stores.ledger.caughtUp();
    const days = new Map((await stores.ledger.dailySummary({ from: '2026-11-21', to: '2026-11-23', mallId: MALL }, 'KRW')).map((d) => [d.date, d]));
    expect(days.get('2026-11-21')).toMatchObject({ payments: { count: 2, amount: 17000 }, cancels: { count: 2, amount: 17000 }, ordersByStatus: { paid: 1, cancelled: 1 } });
    expect(days.get('2026-11-22')).toMatchObject({ ordersByStatus: { paid: 1, cancelled: 1 } });
    expect(days.get('2026-11-23')).toMatchObject({ ordersByStatus: { cancelled: 2 } });
    expect(await stores.ledger.rebuildPage(null, 100, new Date().toISOString())).toMatchObject({ orders: 2, changed: 0 });
    expect(new Map((await stores.ledger.dailySummary({ from: '2026-11-21', to: '2026-11-23', mallId: MALL }, 'KRW')).map((d) => [d.date, d]))).toEqual(days);
  });
}

test('migration 028 is announced on both databases: it passes over every order', () => {
  for (const dialect of ['sqlite', 'postgres'] as const) expect(readMigrations(dialect).find((m) => m.version === 28)?.announce).toMatch(/day's money/);
});

describe('upgrading a SQLite summary to deltas (migration 028)', () => {
  upgradeContract(async () => {
    const old = sqliteAtVersion(BEFORE_DELTAS);
    return {
      ...old,
      openStores: () => openStores(`sqlite:${old.file}`),
      exec: async (sql) => void old.db.exec(sql),
      tables: async () => (old.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]),
    };
  });
});

describePostgres('upgrading a PostgreSQL summary to deltas (migration 028)', () => {
  upgradeContract(async () => {
    const old = await postgresAtVersion(BEFORE_DELTAS);
    return {
      ...old,
      openStores: () => openStores(old.url),
      exec: async (sql) => void (await old.rows(sql)),
      tables: async () => (await old.rows('SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()')).map((r) => String(r.table_name)),
    };
  });
});
