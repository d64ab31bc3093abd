import { join } from 'node:path';
import { createLogger } from '../../src/observability/logger';
import { startRetention } from '../../src/retention/retention-schedule';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { kstTime } from '../../src/console/format';
import { runCliCaptured } from '../cli/seeded-receiver';
import { eventually } from '../helpers/eventually';
import { HOST, startConsoleHarness, type ConsoleHarness } from './console-harness';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('a conflict whose bodies the retention policy removed', () => {
  let h: ConsoleHarness;
  let clock = Date.now();
  let prunedAt: string;
  let bothPruned: number;
  let storedPruned: number;
  let page: (path: string) => Promise<string>;
  const cli = (args: string[]) => runCliCaptured(args, { DATABASE_URL: `sqlite:${join(h.receiver.dir, 'receiver.db')}` });

  beforeAll(async () => {
    h = await startConsoleHarness({ MALL_IDS: 'T0001234' }, { now: () => new Date(clock) });
    const old = approvalNotification({ shopOrderNo: 'ORDER-BOTH-OLD' });
    const later = approvalNotification({ shopOrderNo: 'ORDER-CONFLICT-LATER' });
    // Day 0: two notifications, and a conflicting redelivery of the first.
    await h.receiver.postJson(old).expect(200);
    await h.receiver.postJson({ ...old, amount: '1' }).expect(200);
    await h.receiver.postJson(later).expect(200);
    await eventually(async () => (await h.receiver.store.backlog(Date.now())).pending === 0, 10_000, 'both events delivered');
    bothPruned = (await h.receiver.store.listConflicts())[0]!.id;
    // Day 50 (faked on the row): a conflicting redelivery of the second, still within retention at day 100.
    await h.receiver.postJson({ ...later, amount: '2' }).expect(200);
    storedPruned = (await h.receiver.store.listConflicts())[0]!.id;
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(join(h.receiver.dir, 'receiver.db'));
    db.prepare('UPDATE conflicts SET received_at = ? WHERE id = ?').run(new Date(clock + 50 * DAY_MS).toISOString(), storedPruned);
    db.close();

    clock += 100 * DAY_MS;
    prunedAt = new Date(clock).toISOString();
    const retention = startRetention({ store: h.receiver.store, days: 90, logger: createLogger({ level: 'error', silent: true }), now: () => new Date(clock) });
    await retention.idle();
    retention.stop();
    const { agent } = await h.signIn();
    page = async (path) => (await agent.get(path).set('Host', HOST).expect(200)).text;
  });
  afterAll(() => h.close());

  test('both bodies pruned: the page says so and when, not "0 field(s) differ"', async () => {
    const text = await page(`/console/conflicts/${bothPruned}`);
    expect(text).toContain(`pruned by retention on ${kstTime(prunedAt)}`);
    expect(text).not.toMatch(/field\(s\) differ|class="badge dead">differs/);
  });

  test('only the stored body pruned: the conflicting fields are shown, none marked as differing', async () => {
    const text = await page(`/console/conflicts/${storedPruned}`);
    expect(text).toContain(`The stored body was pruned by retention on ${kstTime(prunedAt)}`);
    expect(text).toContain('ORDER-CONFLICT-LATER');
    expect(text).not.toMatch(/field\(s\) differ|class="badge dead">differs|>absent</);
  });

  test('conflicts show in the CLI says the same', async () => {
    const both = await cli(['conflicts', 'show', String(bothPruned)]);
    expect(both.code).toBe(0);
    expect(both.stdout).toContain(`pruned by retention on ${kstTime(prunedAt)}`);
    expect(both.stdout).not.toMatch(/\(absent\)|no field differs/);
    const stored = await cli(['conflicts', 'show', String(storedPruned)]);
    expect(stored.stdout).toContain(`the stored body was pruned by retention on ${kstTime(prunedAt)}`);
    expect(stored.stdout).not.toMatch(/\(absent\)/);
  });
});
