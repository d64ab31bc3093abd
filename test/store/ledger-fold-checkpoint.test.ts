import { DEFAULT_LEDGER_SETTINGS } from '../../src/config/ledger-settings';
import { cancelled, MALL, minute, paid } from './ledger-entries';
import { freshStoresEach, postgresLedgerDb, sqliteLedgerDb, type LedgerTestDb } from './ledger-test-db';
import { describePostgres } from './pg-test-database';

const order = { mallId: MALL, shopOrderNo: 'ORD-FOLD' };

/**
 * Each order's fold position (migration 030) and the state the projector keeps under its token: an
 * input stored after the order's last moment is applied to the kept state, without reading the
 * order's facts; one stored at or before it, an order that has no position (projected before 030),
 * or a position another writer moved (its token is not the kept one), is replayed from the facts. A
 * fact made unreadable in ledger_facts shows which: a replay meets it (the order is
 * `ledger_error`), the kept state never reads it.
 */
function foldCheckpointContract(openDb: () => Promise<LedgerTestDb>): void {
  const fresh = freshStoresEach(openDb);

  /** A payment at minute 0 and cancels of 1,000 at minutes 1 to `cancels`: an order long enough to keep a checkpoint (from 8 facts). */
  const history = async (cancels: number, lastAt = cancels) => {
    await fresh.stores.store.record(paid(order.shopOrderNo, 'PG-F', 30000, 0));
    for (let i = 1; i <= cancels; i += 1) await fresh.stores.store.record(cancelled(order.shopOrderNo, 'PG-F', `PG-F-C${i}`, 1000, i === cancels ? lastAt : i, 30000 - 1000 * i));
    await fresh.stores.ledger.caughtUp();
  };
  const checkpointRow = async () => (await fresh.db.sql(
    'SELECT s.last_moment, s.settings, s.version FROM ledger_fold_positions s JOIN ledger_orders o ON o.order_id = s.order_id WHERE o.shop_order_no = ?', order.shopOrderNo,
  ))[0];
  const breakFirstFact = async (): Promise<() => Promise<void>> => {
    const [fact] = await fresh.db.sql("SELECT id, fact_json FROM ledger_facts WHERE id LIKE 'evt_%' ORDER BY recorded_at LIMIT 1");
    await fresh.db.sql('UPDATE ledger_facts SET fact_json = ? WHERE id = ?', '{"kind": "notification", broken', String(fact!.id));
    return async () => void (await fresh.db.sql('UPDATE ledger_facts SET fact_json = ? WHERE id = ?', String(fact!.fact_json), String(fact!.id)));
  };

  test('the projector keeps the order\'s checkpoint at its last moment and applies a later input to it, without reading the order\'s facts', async () => {
    await history(7);
    expect(Number((await checkpointRow())!.last_moment)).toBe(Date.parse(minute(7)));

    const repair = await breakFirstFact();
    await fresh.stores.store.record(cancelled(order.shopOrderNo, 'PG-F', 'PG-F-C8', 1000, 8, 22000));
    await expect(fresh.stores.ledger.getOrder(order)).resolves.toMatchObject({ status: 'partially_cancelled', approved: 30000, cancelled: 8000, remaining: 22000 });
    expect(Number((await checkpointRow())!.last_moment)).toBe(Date.parse(minute(8)));
    const token = String((await checkpointRow())!.version);
    // `ledger rebuild` replays from the facts: it meets the broken one, and once it is repaired agrees with the checkpoint's record.
    const live = await fresh.stores.ledger.getOrder(order);
    await fresh.stores.ledger.rebuildPage(null, 100, minute(8));
    await expect(fresh.stores.ledger.getOrder(order)).resolves.toMatchObject({ status: 'ledger_error' });
    expect(await checkpointRow()).toBeUndefined();
    await repair();
    await fresh.stores.ledger.rebuildPage(null, 100, minute(8));
    await expect(fresh.stores.ledger.getOrder(order)).resolves.toEqual(live);
    // The rebuild's write is another than the projector's: its token is new.
    expect(String((await checkpointRow())!.version)).not.toBe(token);
  });

  test('an input stored at or before the checkpoint\'s last moment (another replica\'s clock) replays the order from its facts', async () => {
    await history(7, 9);
    expect(Number((await checkpointRow())!.last_moment)).toBe(Date.parse(minute(9)));
    const repair = await breakFirstFact();
    await fresh.stores.store.record(cancelled(order.shopOrderNo, 'PG-F', 'PG-F-C8', 1000, 9, 22000));
    await expect(fresh.stores.ledger.getOrder(order)).resolves.toMatchObject({ status: 'ledger_error', ledgerError: { error: expect.stringMatching(/stored fact cannot be read/) } });
    // The order lost its checkpoint with the error: repaired, its next input replays it and keeps a new one.
    expect(await checkpointRow()).toBeUndefined();
    await repair();
    await fresh.stores.store.record(cancelled(order.shopOrderNo, 'PG-F', 'PG-F-C9', 1000, 10, 21000));
    await expect(fresh.stores.ledger.getOrder(order)).resolves.toMatchObject({ status: 'partially_cancelled', cancelled: 9000, remaining: 21000 });
    expect(Number((await checkpointRow())!.last_moment)).toBe(Date.parse(minute(10)));
    await expect(fresh.stores.ledger.rebuildPage(null, 100, minute(10))).resolves.toMatchObject({ orders: 1, changed: 0 });
  });

  test('an order projected before migration 030 has no fold position: its next input replays it once from its facts and keeps one', async () => {
    await history(7);
    await fresh.db.sql('DELETE FROM ledger_fold_positions');
    await fresh.stores.store.record(cancelled(order.shopOrderNo, 'PG-F', 'PG-F-C8', 1000, 8, 22000));
    await expect(fresh.stores.ledger.getOrder(order)).resolves.toMatchObject({ status: 'partially_cancelled', cancelled: 8000, remaining: 22000 });
    expect(await checkpointRow()).toMatchObject({ settings: expect.stringContaining(`grace=${DEFAULT_LEDGER_SETTINGS.graceSeconds}`) });
    expect(Number((await checkpointRow())!.last_moment)).toBe(Date.parse(minute(8)));
    await expect(fresh.stores.ledger.rebuildPage(null, 100, minute(8))).resolves.toMatchObject({ orders: 1, changed: 0 });
  });

  test('a fold position moved in the store behind the projector (another replica, a rebuild) is replayed from the facts, not gone on from the state the projector kept', async () => {
    await history(8);
    // Another writer's token: the order must be replayed from its facts, which meets the broken one.
    await fresh.db.sql("UPDATE ledger_fold_positions SET version = 'another-writer'");
    const repair = await breakFirstFact();
    await fresh.stores.store.record(cancelled(order.shopOrderNo, 'PG-F', 'PG-F-C9', 1000, 9, 21000));
    await expect(fresh.stores.ledger.getOrder(order)).resolves.toMatchObject({ status: 'ledger_error' });
    await repair();
    await fresh.stores.store.record(cancelled(order.shopOrderNo, 'PG-F', 'PG-F-C10', 1000, 10, 20000));
    await expect(fresh.stores.ledger.getOrder(order)).resolves.toMatchObject({ status: 'partially_cancelled', cancelled: 10000, remaining: 20000 });
    await expect(fresh.stores.ledger.rebuildPage(null, 100, minute(10))).resolves.toMatchObject({ orders: 1, changed: 0 });
  });

  test('an order of fewer than 8 facts keeps no checkpoint: it is replayed at each input, which costs less than one', async () => {
    await history(6);
    expect(await checkpointRow()).toBeUndefined();
    await fresh.stores.store.record(cancelled(order.shopOrderNo, 'PG-F', 'PG-F-C7', 1000, 7, 23000));
    await fresh.stores.ledger.caughtUp();
    expect(Number((await checkpointRow())!.last_moment)).toBe(Date.parse(minute(7)));
  });
}

describe('fold checkpoints on SQLite', () => {
  foldCheckpointContract(async () => sqliteLedgerDb('noti-fold-'));
});

describePostgres('fold checkpoints on PostgreSQL', () => {
  foldCheckpointContract(postgresLedgerDb);
});
