import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LEDGER_SETTINGS } from '../../../src/config/ledger-settings';
import { createLedgerStore } from '../../../src/ledger/projector/ledger-store';
import { createStore } from '../../../src/store/create-store';
import { typedDriver, type StoreDriver } from '../../../src/store/driver';
import { openDriver } from '../../../src/store/open-store';
import { MALL, minute, paid } from '../../store/ledger-entries';
import { createTestSchema, describePostgres } from '../../store/pg-test-database';

const SETTINGS = DEFAULT_LEDGER_SETTINGS;
const order = (shopOrderNo: string) => ({ mallId: MALL, shopOrderNo });

/** The projector's two phases against one database: `open` gives a fresh driver and its cleanup. */
function offWriterContract(open: () => Promise<{ driver: StoreDriver; cleanup: () => Promise<void> }>): void {
  let driver: StoreDriver;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ driver, cleanup } = await open()));
  afterEach(async () => cleanup());

  test("the serving projector sends the writer only its batches' writes: the reads and the fold go to its own reader", async () => {
    const asked: string[] = [];
    const logged: StoreDriver = {
      ...driver,
      ledgerWrite: (name, args) => (asked.push(`write ${name}`), driver.ledgerWrite(name, args)),
      ledgerRead: (name, args) => (asked.push(`read ${name}`), driver.ledgerRead(name, args)),
    };
    const ledger = createLedgerStore(logged, SETTINGS, { projector: { pollMs: 50 } });
    try {
      await createStore(driver).record(paid('ORD-W', 'PG-W', 30000));
      await expect(ledger.getOrder(order('ORD-W'))).resolves.toMatchObject({ status: 'paid', approved: 30000 });
    } finally {
      await ledger.stop();
    }
    expect(asked).toContain('read computeLedgerBatch');
    expect(asked.filter((name) => name.startsWith('write'))).toEqual(expect.arrayContaining(['write applyLedgerBatch']));
    expect(asked.filter((name) => name.startsWith('write') && name !== 'write applyLedgerBatch')).toEqual([]);
  });

  test('a batch computed before the position moved is discarded whole: nothing of it is written, nothing twice', async () => {
    const { ledgerRead, ledgerWrite, read } = typedDriver(driver);
    const store = createStore(driver);
    await store.record(paid('ORD-M', 'PG-M', 30000));
    const stale = await ledgerRead('computeLedgerBatch', 256, minute(1), SETTINGS, false);
    expect(stale.write).not.toBeNull();
    // Another projector (a replica, the CLI) applies the same rows first.
    await expect(ledgerWrite('projectLedger', 256, minute(1), SETTINGS, false)).resolves.toMatchObject({ orders: 1 });
    const position = await read('ledgerPosition');
    const queued = (await store.nextPending(100)).length;
    await expect(ledgerWrite('applyLedgerBatch', stale.write!)).resolves.toBe(false);
    expect(await read('ledgerPosition')).toEqual(position);
    expect((await store.nextPending(100)).length).toBe(queued);
    await expect(read('getOrder', order('ORD-M'))).resolves.toMatchObject({ approved: 30000, payments: [{ pgCno: 'PG-M', amount: 30000 }] });
    // Computed again from the new position, nothing is left to apply (only the ledger's own entries to pass).
    const again = await ledgerRead('computeLedgerBatch', 256, minute(1), SETTINGS, false);
    expect(again.batch.orders).toBe(0);
    expect(again.write?.statements ?? []).toEqual([]);
    expect(again.write?.events ?? []).toEqual([]);
  });

  test('a rebuild page that rewrote a record moves the generation: a batch read before it is discarded', async () => {
    const { ledgerRead, ledgerWrite } = typedDriver(driver);
    const store = createStore(driver);
    await store.record(paid('ORD-G', 'PG-G', 30000));
    await expect(ledgerWrite('projectLedger', 256, minute(1), SETTINGS, false)).resolves.toMatchObject({ orders: 1 });
    await store.record(paid('ORD-G', 'PG-G2', 1000, 2));
    const stale = await ledgerRead('computeLedgerBatch', 256, minute(3), SETTINGS, false);
    // Recomputed under other settings, the record comes out different and is written.
    await expect(ledgerWrite('rebuildLedger', null, 100, minute(3), { ...SETTINGS, requireExpectation: true })).resolves.toMatchObject({ changed: 1 });
    await expect(ledgerWrite('applyLedgerBatch', stale.write!)).resolves.toBe(false);
  });
}

describe('the projector off the writer, on SQLite', () => {
  offWriterContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-offwriter-'));
    const driver = await openDriver(`sqlite:${join(dir, 'receiver.db')}`);
    return { driver, cleanup: async () => { await driver.close(); rmSync(dir, { recursive: true, force: true }); } };
  });
});

describePostgres('the projector off the writer, on PostgreSQL', () => {
  offWriterContract(async () => {
    const schema = await createTestSchema();
    const driver = await openDriver(schema.url);
    return { driver, cleanup: async () => { await driver.close(); await schema.drop(); } };
  });
});
