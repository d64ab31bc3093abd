import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { DEFAULT_LEDGER_SETTINGS } from '../../../src/config/ledger-settings';
import { createStore } from '../../../src/store/create-store';
import { typedDriver, type StoreDriver } from '../../../src/store/driver';
import { openDriver } from '../../../src/store/open-store';
import type { InboxEntry } from '../../../src/store/store';
import { cancelled, minute, paid } from '../../store/ledger-entries';
import { createTestSchema, describePostgres } from '../../store/pg-test-database';

const SETTINGS = DEFAULT_LEDGER_SETTINGS;
const LEDGER_TYPES = new Set(['order.status_changed', 'order.updated', 'ledger.discrepancy']);

interface Opened {
  driver: StoreDriver;
  cleanup(): Promise<void>;
}

/** The ledger's events as a consumer reads them from the queue, in order: type, id, the change and the figures. */
async function ledgerStream(driver: StoreDriver): Promise<unknown[]> {
  const pending = await createStore(driver).nextPending(10_000);
  return pending.filter((row) => LEDGER_TYPES.has(row.eventType)).map((row) => {
    const event = JSON.parse(row.eventJson) as { id: string; type: string; at: string; from?: string | null; to?: string; order: Record<string, unknown> };
    const { approved, cancelled: taken, remaining, status, shopOrderNo } = event.order;
    return { id: event.id, type: event.type, at: event.at, from: event.from, to: event.to, order: { shopOrderNo, status, approved, cancelled: taken, remaining } };
  });
}

/** Every stored input projected in batches of at most `limit` rows, until none is left. */
async function projectAll(driver: StoreDriver, limit: number): Promise<number> {
  const { ledgerWrite } = typedDriver(driver);
  let batches = 0;
  for (;;) {
    const batch = await ledgerWrite('projectLedger', limit, minute(100), SETTINGS, false);
    if (batch.rows === 0) return batches;
    batches += 1;
  }
}

/** The same inputs, each projected on a fresh database in batches of another size, give one event stream. */
function eventsPerInputContract(open: () => Promise<Opened>): void {
  const opened: Opened[] = [];
  const fresh = async () => {
    const db = await open();
    opened.push(db);
    return db.driver;
  };
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.cleanup();
  });

  async function streamOf(entries: readonly InboxEntry[], limit: number): Promise<{ stream: unknown[]; batches: number }> {
    const driver = await fresh();
    const store = createStore(driver);
    for (const entry of entries) await store.record(entry);
    const batches = await projectAll(driver, limit);
    return { stream: await ledgerStream(driver), batches };
  }

  test('two partial cancels in one batch give two order.updated, as in two batches, with the same ids', async () => {
    const entries = [
      paid('ORD-TWO', 'PG-TWO', 30000, 1),
      cancelled('ORD-TWO', 'PG-TWO', 'CX-TWO-1', 5000, 2, 25000),
      cancelled('ORD-TWO', 'PG-TWO', 'CX-TWO-2', 7000, 3, 18000),
    ];
    const separate = await streamOf(entries, 1);
    const together = await streamOf(entries, 256);
    expect(together.batches).toBeLessThan(separate.batches);
    expect(separate.stream).toEqual([
      expect.objectContaining({ type: 'order.status_changed', from: null, to: 'paid' }),
      expect.objectContaining({ type: 'order.status_changed', from: 'paid', to: 'partially_cancelled', order: expect.objectContaining({ cancelled: 5000, remaining: 25000 }) }),
      expect.objectContaining({ type: 'order.updated', order: expect.objectContaining({ cancelled: 12000, remaining: 18000 }) }),
    ]);
    expect(together.stream).toEqual(separate.stream);
  });

  test('a batch computed again (after a crash before its commit) computes the same events with the same ids', async () => {
    const driver = await fresh();
    const store = createStore(driver);
    for (const entry of [paid('ORD-AGAIN', 'PG-AGAIN', 30000, 1), cancelled('ORD-AGAIN', 'PG-AGAIN', 'CX-AGAIN-1', 5000, 2), cancelled('ORD-AGAIN', 'PG-AGAIN', 'CX-AGAIN-2', 5000, 3)]) await store.record(entry);
    const { ledgerRead } = typedDriver(driver);
    const first = await ledgerRead('computeLedgerBatch', 256, minute(100), SETTINGS, false);
    const again = await ledgerRead('computeLedgerBatch', 256, minute(100), SETTINGS, false);
    expect(first.write?.events.length).toBeGreaterThan(0);
    expect(again.write?.events).toEqual(first.write?.events);
  });

  test('random orders and inputs, stored in their order: one batch, one input per batch and batches of three give the same stream; a rebuild adds nothing', async () => {
    const story = fc.record({
      payments: fc.array(fc.constantFrom(10000, 30000), { minLength: 1, maxLength: 2 }),
      cancels: fc.array(fc.record({ payment: fc.nat(), amount: fc.constantFrom(1000, 5000, 10000, 30000) }), { maxLength: 4 }),
      redeliver: fc.boolean(),
    });
    // One database per batch size, each run's orders apart from the runs' before it.
    const drivers = [await fresh(), await fresh(), await fresh()];
    const ofRun = (stream: unknown[], run: number) => stream.filter((e) => (e as { order: { shopOrderNo: string } }).order.shopOrderNo.startsWith(`ORD-P${run}-`));
    let run = 0;
    await fc.assert(fc.asyncProperty(fc.array(story, { minLength: 1, maxLength: 3 }), fc.nat(), async (stories, seed) => {
      run += 1;
      // Each order's inputs in its own order, interleaved with the others', a minute apart.
      const lanes = stories.map((s, i) => {
        const no = `ORD-P${run}-${i}`;
        const pays = s.payments.map((amount, n) => ({ make: (at: number) => paid(no, `PG-${run}-${i}-${n}`, amount, at) }));
        const cancels = s.cancels.map((c, n) => ({ make: (at: number) => cancelled(no, `PG-${run}-${i}-${c.payment % s.payments.length}`, `CX-${run}-${i}-${n}`, c.amount, at) }));
        const redelivery = s.redeliver ? [{ make: (at: number) => ({ ...paid(no, `PG-${run}-${i}-0`, s.payments[0]!, at) }) }] : [];
        return [...pays, ...cancels, ...redelivery];
      });
      const entries: InboxEntry[] = [];
      let at = 1;
      for (let n = seed; lanes.some((lane) => lane.length > 0); n += 7) {
        const lane = lanes.filter((l) => l.length > 0)[n % lanes.filter((l) => l.length > 0).length]!;
        entries.push(lane.shift()!.make(at));
        at += 1;
      }
      const streams: unknown[][] = [];
      for (const [i, limit] of [1, 256, 3].entries()) {
        const driver = drivers[i]!;
        const store = createStore(driver);
        for (const entry of entries) await store.record(entry);
        await projectAll(driver, limit);
        streams.push(ofRun(await ledgerStream(driver), run));
      }
      expect(streams[0]!.length).toBeGreaterThan(0);
      expect(streams[1]).toEqual(streams[0]);
      expect(streams[2]).toEqual(streams[0]);
      const before = (await ledgerStream(drivers[1]!)).length;
      // As of the last input, as the projector computed (later, a grace period would pass and open what a sweep opens).
      await typedDriver(drivers[1]!).ledgerWrite('rebuildLedger', null, 1000, minute(at), SETTINGS);
      expect((await ledgerStream(drivers[1]!)).length).toBe(before);
    }), { numRuns: Number(process.env.EVENT_RUNS ?? 10) });
  }, 240_000);
}

describe('the ledger\'s events per input, on SQLite', () => {
  eventsPerInputContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-events-per-input-'));
    const driver = await openDriver(`sqlite:${join(dir, 'receiver.db')}`);
    return { driver, cleanup: async () => { await driver.close(); rmSync(dir, { recursive: true, force: true }); } };
  });
});

describePostgres('the ledger\'s events per input, on PostgreSQL', () => {
  eventsPerInputContract(async () => {
    const schema = await createTestSchema();
    const driver = await openDriver(schema.url);
    return { driver, cleanup: async () => { await driver.close(); await schema.drop(); } };
  });
});
