import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { runCliCaptured } from '../cli/seeded-receiver';
import { notifications, notify } from './summary-kit';

interface Database {
  url: string;
  stores: Stores;
  cleanup(): Promise<void>;
}

/** `noti-receiver summary` against a database a receiver is serving. */
function summaryCommand(open: () => Promise<Database>): void {
  let db: Database;
  const cli = (...args: string[]) => runCliCaptured(args, { DATABASE_URL: db.url });
  beforeEach(async () => {
    db = await open();
  });
  afterEach(async () => db.cleanup());

  test('prints each day\'s money in its currency (won, dollars), payments by method, and --json as the API answers it', async () => {
    const won = { mallId: 'T0001234', shopOrderNo: 'ORD-SUM-1' };
    const usd = { mallId: 'T0001234', shopOrderNo: 'ORD-SUM-2' };
    await db.stores.ledger.putExpectation(usd, { amount: 1203, currency: 'USD', method: 'card', expiresAt: null }, '2026-11-21T00:00:00.000Z');
    await db.stores.store.record(notify.paid(won, 'PG-SUM-1', 12000, 10));
    await db.stores.store.record(notify.paid(usd, 'PG-SUM-2', 1203, 20));
    await db.stores.ledger.caughtUp();
    await db.stores.store.record(notify.cancelled(won, 'PG-SUM-1', 'CX-SUM-1', 2000, 1440 + 10));

    const shown = await cli('summary', '--from', '2026-11-22', '--to', '2026-11-23');
    expect(shown.code).toBe(0);
    const rows = shown.stdout.split('\n').slice(2, 6).map((line) => line.split(/\s{2,}/));
    expect(rows).toEqual([
      ['2026-11-22', 'T0001234', 'KRW', '1 × ₩12,000', '-', '-', '-', '₩12,000', '-', '+0 / -0', 'paid 1'],
      ['2026-11-23', 'T0001234', 'KRW', '-', '1 × ₩2,000', '-', '-', '-₩2,000', '-', '+0 / -0', 'partially_cancelled 1'],
      ['2026-11-22', 'T0001234', 'USD', '1 × $12.03', '-', '-', '-', '$12.03', '-', '+0 / -0', 'paid 1'],
      ['2026-11-23', 'T0001234', 'USD', '-', '-', '-', '-', '$0.00', '-', '+0 / -0', 'paid 1'],
    ]);
    // By the gateway's method code: a card payment is a card's whether or not the shop registered it.
    expect(shown.stdout).toContain('payments by method\n2026-11-22  T0001234  card: 1 × ₩12,000\n2026-11-22  T0001234  card: 1 × $12.03');
    const json = (await cli('summary', '--from', '2026-11-22', '--to', '2026-11-22', '--mall', 'T0001234', '--json')).json<{ days: Array<{ currency: string; net: number }> }>();
    expect(json.days.map((d) => [d.currency, d.net])).toEqual([['KRW', 12000], ['USD', 1203]]);
    expect((await cli('summary', '--from', '2026-11-22', '--to', '2026-11-22', '--mall', 'T0009999')).stdout).toBe('nothing booked in this range\n');
  });

  test('the simulator\'s orders are in none of the figures and printed apart, labelled as left out', async () => {
    const real = { mallId: 'T0001234', shopOrderNo: 'ORD-SUM-REAL' };
    const made = { mallId: 'T0001234', shopOrderNo: 'ORD-SUM-SIM' };
    const simulator = notifications(true);
    await db.stores.store.record(notify.paid(real, 'PG-SUM-REAL', 30000, 10));
    await db.stores.store.record(simulator.paid(made, 'PG-SUM-SIM', 13200, 11));
    await db.stores.store.record(simulator.refundFailed(made, 'PG-SUM-SIM', 45000, 12));
    await db.stores.ledger.caughtUp();
    const shown = await cli('summary', '--from', '2026-11-22', '--to', '2026-11-22');
    expect(shown.code).toBe(0);
    expect(shown.stdout.split('\n')[2]!.split(/\s{2,}/)).toEqual(['2026-11-22', 'T0001234', 'KRW', '1 × ₩30,000', '-', '-', '-', '₩30,000', '-', '+1 / -0', 'paid 1, refund_failed 1']);
    expect(shown.stdout).toContain('simulated orders (not in the totals)\n2026-11-22  T0001234  payments 1 × ₩13,200, refunds failed 1 × ₩45,000, net ₩13,200');
  });

  test('a failed refund prints the amount of the refund it follows, and one whose amount cannot be known says so, never × ₩0', async () => {
    const followed = { mallId: 'T0001234', shopOrderNo: 'ORD-SUM-51A' };
    const alone = { mallId: 'T0001234', shopOrderNo: 'ORD-SUM-51B' };
    await db.stores.store.record(notify.paid(followed, 'PG-SUM-51A', 30000, 10));
    await db.stores.store.record(notify.cancelled(followed, 'PG-SUM-51A', 'CX-SUM-51A', 12000, 20));
    await db.stores.store.record(notify.refundFailed(followed, 'PG-SUM-51A', null, 30));
    await db.stores.store.record(notify.paid(alone, 'PG-SUM-51B', 5000, 1440 + 10));
    await db.stores.store.record(notify.refundFailed(alone, 'PG-SUM-51B', null, 1440 + 20));
    await db.stores.ledger.caughtUp();
    const shown = await cli('summary', '--from', '2026-11-22', '--to', '2026-11-23');
    expect(shown.code).toBe(0);
    const failed = shown.stdout.split('\n').slice(2, 4).map((line) => line.split(/\s{2,}/)[8]);
    expect(failed).toEqual(['1 × ₩12,000', '1 × amount unknown']);
    expect(shown.stdout).not.toContain('× ₩0');
  });

  test.each([
    [['--from', '2026-11-23', '--to', '2026-11-22'], 'to 2026-11-22 is before from 2026-11-23'],
    [['--from', '2026-13-01', '--to', '2026-13-02'], 'from: 2026-13-01 is not a day: there is no month 13'],
    [['--from', '2026-12-01', '--to', '2026-12-32'], 'to: 2026-12-32 is not a day: 2026-12 has days 01 to 31'],
    [['--from', '2026-02-29', '--to', '2026-03-01'], 'from: 2026-02-29 is not a day: 2026-02 has days 01 to 28'],
    [['--from', '0000-01-01', '--to', '9999-12-31'], 'is 3652425 days, more than 366'],
    [['--from', '2026/11/22', '--to', '2026-11-22'], 'is not a day: write it as YYYY-MM-DD'],
  ])('a bad range (%j) is a usage error: exit 2 and one line that says what is wrong', async (args, words) => {
    const bad = await cli('summary', ...args);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(words);
    // Beside the line every command writes naming the store it reads: the problem, on one line.
    expect(bad.stderr.trim().split('\n').filter((line) => !line.startsWith('noti-receiver: reading '))).toEqual([expect.stringContaining(words)]);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });

  test('a leap day is a day', async () => {
    expect(await cli('summary', '--from', '2024-02-29', '--to', '2024-02-29')).toMatchObject({ code: 0, stdout: 'nothing booked in this range\n' });
  });
}

describe('summary command on SQLite', () => {
  summaryCommand(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-summary-cli-'));
    const url = `sqlite:${join(dir, 'receiver.db')}`;
    const stores = await openStores(url);
    return { url, stores, cleanup: async () => { await stores.store.close(); rmSync(dir, { recursive: true, force: true }); } };
  });
});

describePostgres('summary command on PostgreSQL', () => {
  summaryCommand(async () => {
    const schema: TestSchema = await createTestSchema();
    const stores = await openStores(schema.url);
    return { url: schema.url, stores, cleanup: async () => { await stores.store.close(); await schema.drop(); } };
  });
});
