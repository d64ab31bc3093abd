import Database from 'better-sqlite3';
import { cancelled, MALL, paid } from './ledger-entries';
import { freshStoresEach, postgresLedgerDb, sqliteLedgerDb, type LedgerTestDb } from './ledger-test-db';
import { describePostgres } from './pg-test-database';

interface Db extends LedgerTestDb {
  /** Logs into `written (what, bytes)` every row written to ledger_order_items (`item`, `deleted`) and every record_json written (`header`). */
  countWrites(): Promise<void>;
}

const SHORT = { mallId: MALL, shopOrderNo: 'ORD-ITEMS-SHORT' };
const LONG = { mallId: MALL, shopOrderNo: 'ORD-ITEMS-LONG' };

/**
 * An order's growing lists as rows (ledger_order_items, migration 031): one more cancel writes its
 * new items and the order's header, the same rows and about the same bytes on an order of 20
 * cancels as on one of 300, where the record written whole grew with every cancel; the record reads
 * as it did; and a record stored whole before 031 reads as stored and is written as header and
 * items when next projected.
 */
function orderItemsContract(openDb: () => Promise<Db>): void {
  const fresh = freshStoresEach(openDb);

  /** A payment of 1,000,000 at minute 0, then one-won cancels at minutes 1 to `cancels`, each stating what is left. */
  const history = async (order: typeof SHORT, cancels: number) => {
    await fresh.stores.store.record(paid(order.shopOrderNo, `${order.shopOrderNo}-PG`, 1_000_000, 0));
    for (let i = 1; i <= cancels; i += 1) await fresh.stores.store.record(cancelled(order.shopOrderNo, `${order.shopOrderNo}-PG`, `${order.shopOrderNo}-C${i}`, 1, i, 1_000_000 - i));
    await fresh.stores.ledger.caughtUp();
  };
  const oneMoreCancel = async (order: typeof SHORT, n: number) => {
    await fresh.db.sql('DELETE FROM written');
    await fresh.stores.store.record(cancelled(order.shopOrderNo, `${order.shopOrderNo}-PG`, `${order.shopOrderNo}-C${n}`, 1, n, 1_000_000 - n));
    await fresh.stores.ledger.caughtUp();
    const rows = await fresh.db.sql('SELECT what, count(*) AS n, sum(bytes) AS bytes FROM written GROUP BY what ORDER BY what');
    return Object.fromEntries(rows.map((r) => [String(r.what), { rows: Number(r.n), bytes: Number(r.bytes) }]));
  };
  const itemCount = async (order: typeof SHORT) => Number((await fresh.db.sql(
    'SELECT count(*) AS n FROM ledger_order_items i JOIN ledger_orders o ON o.order_id = i.order_id WHERE o.shop_order_no = ?', order.shopOrderNo,
  ))[0]!.n);

  test('one more cancel writes the same rows and bytes on an order of 300 cancels as on one of 20: its new items and the header', async () => {
    await history(SHORT, 20);
    await history(LONG, 300);
    await fresh.db.countWrites();
    const short = await oneMoreCancel(SHORT, 21);
    const long = await oneMoreCancel(LONG, 301);
    // The new cancel and the new event id; nothing cleared; the header once.
    expect(short).toEqual({ header: { rows: 1, bytes: expect.any(Number) }, item: { rows: 2, bytes: expect.any(Number) } });
    expect(long).toEqual({ header: { rows: 1, bytes: expect.any(Number) }, item: { rows: 2, bytes: expect.any(Number) } });
    // Only the longer numbers in them differ (the cancel's number, what is left): never a list.
    expect(Math.abs(long.item!.bytes - short.item!.bytes)).toBeLessThanOrEqual(16);
    expect(Math.abs(long.header!.bytes - short.header!.bytes)).toBeLessThanOrEqual(16);
    expect(long.header!.bytes).toBeLessThan(2_000);

    const record = await fresh.stores.ledger.getOrder(LONG);
    expect(record).toMatchObject({ status: 'partially_cancelled', cancelled: 301, remaining: 1_000_000 - 301 });
    expect(record!.cancels).toHaveLength(301);
    expect(record!.events).toHaveLength(302);
    expect(await itemCount(LONG)).toBe(1 + 301 + 302);
    // A replay of the facts composes the same record: nothing to write.
    await expect(fresh.stores.ledger.rebuildPage(null, 100, new Date().toISOString())).resolves.toMatchObject({ changed: 0 });
    await expect(fresh.stores.ledger.getOrder(LONG)).resolves.toEqual(record);
  });

  test('a record stored whole before the items table reads as it was stored, and its next input writes it as header and items', async () => {
    await history(SHORT, 12);
    const before = await fresh.stores.ledger.getOrder(SHORT);
    // As a release before 031 left it: the record whole in its row, no items.
    await fresh.db.sql('UPDATE ledger_orders SET record_json = ? WHERE shop_order_no = ?', JSON.stringify(before), SHORT.shopOrderNo);
    await fresh.db.sql('DELETE FROM ledger_order_items');
    expect(JSON.stringify(await fresh.stores.ledger.getOrder(SHORT))).toBe(JSON.stringify(before));
    // A rebuild finds the same record (nothing changed) and stores it in the new shape.
    await expect(fresh.stores.ledger.rebuildPage(null, 100, new Date().toISOString())).resolves.toMatchObject({ changed: 0 });
    expect(await itemCount(SHORT)).toBe(1 + 12 + 13);
    expect(JSON.stringify(await fresh.stores.ledger.getOrder(SHORT))).toBe(JSON.stringify(before));

    await fresh.db.sql('UPDATE ledger_orders SET record_json = ? WHERE shop_order_no = ?', JSON.stringify(before), SHORT.shopOrderNo);
    await fresh.db.sql('DELETE FROM ledger_order_items');
    await fresh.stores.store.record(cancelled(SHORT.shopOrderNo, `${SHORT.shopOrderNo}-PG`, `${SHORT.shopOrderNo}-C13`, 1, 13, 1_000_000 - 13));
    await fresh.stores.ledger.caughtUp();
    const [row] = await fresh.db.sql('SELECT record_json FROM ledger_orders WHERE shop_order_no = ?', SHORT.shopOrderNo);
    expect(JSON.parse(String(row!.record_json))).toMatchObject({ payments: 1, cancels: 13, events: 14, discrepancies: 0 });
    expect(await itemCount(SHORT)).toBe(1 + 13 + 14);
    const after = await fresh.stores.ledger.getOrder(SHORT);
    expect(after!.cancels.slice(0, 12)).toEqual(before!.cancels);
    expect(after).toMatchObject({ cancelled: 13, remaining: 1_000_000 - 13 });
  });
}

describe('an order\'s items on SQLite', () => {
  orderItemsContract(async () => {
    const db = sqliteLedgerDb('noti-items-');
    return {
      ...db,
      async countWrites() {
        const raw = new Database(db.file);
        try {
          raw.exec(`CREATE TABLE written (what TEXT NOT NULL, bytes INTEGER NOT NULL);
            CREATE TRIGGER item_inserted AFTER INSERT ON ledger_order_items BEGIN INSERT INTO written VALUES ('item', length(NEW.item_json)); END;
            CREATE TRIGGER item_updated AFTER UPDATE ON ledger_order_items BEGIN INSERT INTO written VALUES ('item', length(NEW.item_json)); END;
            CREATE TRIGGER item_deleted AFTER DELETE ON ledger_order_items BEGIN INSERT INTO written VALUES ('deleted', length(OLD.item_json)); END;
            CREATE TRIGGER header_inserted AFTER INSERT ON ledger_orders WHEN NEW.record_json IS NOT NULL BEGIN INSERT INTO written VALUES ('header', length(NEW.record_json)); END;
            CREATE TRIGGER header_updated AFTER UPDATE OF record_json ON ledger_orders BEGIN INSERT INTO written VALUES ('header', length(NEW.record_json)); END;`);
        } finally {
          raw.close();
        }
      },
    };
  });
});

describePostgres('an order\'s items on PostgreSQL', () => {
  orderItemsContract(async () => {
    const db = await postgresLedgerDb();
    const { sql } = db;
    return {
      ...db,
      async countWrites() {
        await sql('CREATE TABLE written (what TEXT NOT NULL, bytes BIGINT NOT NULL)');
        await sql(`CREATE FUNCTION log_item() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
            IF TG_OP = 'DELETE' THEN INSERT INTO written VALUES ('deleted', octet_length(OLD.item_json)); RETURN OLD; END IF;
            INSERT INTO written VALUES ('item', octet_length(NEW.item_json)); RETURN NEW; END $$`);
        await sql(`CREATE FUNCTION log_header() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
            IF NEW.record_json IS NOT NULL THEN INSERT INTO written VALUES ('header', octet_length(NEW.record_json)); END IF;
            RETURN NEW; END $$`);
        await sql('CREATE TRIGGER item_written AFTER INSERT OR UPDATE OR DELETE ON ledger_order_items FOR EACH ROW EXECUTE FUNCTION log_item()');
        await sql('CREATE TRIGGER header_written AFTER INSERT OR UPDATE OF record_json ON ledger_orders FOR EACH ROW EXECUTE FUNCTION log_header()');
      },
    };
  });
});
