import { runRetention } from '../../src/retention/run-retention';
import type { Store } from '../../src/store/store';
import { inboxEntry, rejectionEntry } from '../helpers/stored-events';
import type { FreshStore } from './store-contract';

const DAY_MS = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2026-08-01T03:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();

/** The console's and the CLI's queries, run against each database by the suites below. */
export function operatorQueriesContract(openFresh: () => Promise<FreshStore>): void {
  let store: Store;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ store, cleanup } = await openFresh());
  });
  afterEach(async () => cleanup());

  const deliverAll = async (when: number) => {
    const seqs = (await store.nextPending(1000)).map((row) => row.seq);
    await store.markDelivered(seqs, at(when));
  };

  test('search finds an event by shopOrderNo, pgCno or event id, and filters by type, state and date', async () => {
    const approval = inboxEntry({ pgCno: 'PG-A', shopOrderNo: 'ORDER-A', receivedAt: at(T0) });
    const refund = inboxEntry({ notiType: '50', pgCno: 'PG-B', shopOrderNo: 'ORDER-B', receivedAt: at(T0 + DAY_MS) });
    await store.record(approval);
    await store.record(refund);
    const ids = async (search: Parameters<Store['searchEvents']>[0]) => (await store.searchEvents(search)).map((row) => row.eventId);
    const page = { limit: 10, offset: 0 };

    await expect(ids({ query: 'ORDER-A', ...page })).resolves.toEqual([approval.event.id]);
    await expect(ids({ query: 'PG-B', ...page })).resolves.toEqual([refund.event.id]);
    await expect(ids({ query: refund.event.id, ...page })).resolves.toEqual([refund.event.id]);
    await expect(ids({ type: 'refund.completed', ...page })).resolves.toEqual([refund.event.id]);
    await expect(ids({ from: at(T0 + DAY_MS / 2), ...page })).resolves.toEqual([refund.event.id]);
    await expect(ids({ to: at(T0 + DAY_MS / 2), ...page })).resolves.toEqual([approval.event.id]);
    await expect(ids({ status: 'delivered', ...page })).resolves.toEqual([]);
    await expect(ids({ limit: 1, offset: 1 })).resolves.toEqual([approval.event.id]);
  });

  test('"requeue all dead" for a filter revives only the dead events it selects', async () => {
    const a = inboxEntry({ pgCno: 'PG-D1', shopOrderNo: 'ORDER-D' });
    const b = inboxEntry({ pgCno: 'PG-D2', shopOrderNo: 'ORDER-OTHER' });
    await store.record(a);
    await store.record(b);
    for (const row of await store.nextPending(10)) await store.markDead(row.seq, 'queue refused it');

    await expect(store.requeueDeadMatching({ query: 'ORDER-D' })).resolves.toBe(1);
    expect((await store.nextPending(10)).map((row) => row.eventId)).toEqual([a.event.id]);
    await expect(store.eventCounts()).resolves.toEqual({ pending: 1, delivered: 0, dead: 1 });
  });

  test('overview counts: rejections and conflicts since a time, notifications per hour and type', async () => {
    await store.record(inboxEntry({ pgCno: 'PG-H1', receivedAt: '2026-11-21T03:10:00.000Z' }));
    await store.record(inboxEntry({ pgCno: 'PG-H2', receivedAt: '2026-11-21T03:50:00.000Z' }));
    await store.record(inboxEntry({ notiType: '30', pgCno: 'PG-H3', receivedAt: '2026-11-21T05:00:00.000Z' }));
    await store.record(inboxEntry({ pgCno: 'PG-H1', receivedAt: '2026-11-21T06:00:00.000Z', data: { resMsg: 'changed' } }));
    await store.recordRejection(rejectionEntry({ receivedAt: '2026-11-21T04:00:00.000Z' }));
    await store.recordRejection(rejectionEntry({ receivedAt: '2026-11-19T04:00:00.000Z' }));
    // The service's own entries are no notifications of the gateway (own-events.test.ts: not counted).

    await expect(store.problemsSince('2026-11-20T06:00:00.000Z')).resolves.toEqual({ rejections: 1, conflicts: 1 });
    await expect(store.eventActivity('2026-11-21T00:00:00.000Z')).resolves.toEqual([
      { hour: '2026-11-21T03', type: 'payment.approved', count: 2 },
      { hour: '2026-11-21T05', type: 'vaccount.deposited', count: 1 },
    ]);
    const [conflict] = await store.listConflicts();
    await expect(store.conflictsOfEvent(conflict!.eventId)).resolves.toEqual([expect.objectContaining({ id: conflict!.id })]);
  });

  test('the audit log keeps who did what and when, newest first', async () => {
    await store.recordAudit({ at: at(T0), actor: 'kim (127.0.0.1)', action: 'signed in', subject: null, detail: null });
    await store.recordAudit({ at: at(T0 + 1000), actor: 'kim (127.0.0.1)', action: 'requeued', subject: 'evt_1', detail: null });
    const rows = await store.listAudit(10);
    expect(rows.map((row) => [row.action, row.subject, row.at])).toEqual([
      ['requeued', 'evt_1', at(T0 + 1000)],
      ['signed in', null, at(T0)],
    ]);
  });

  test('the audit log pages newest first (keyset) and filters by operator, action and time range', async () => {
    const actors = ['kim (10.0.0.7)', 'kim (cli)', 'kim', 'kimberly (10.0.0.8)', 'k%m (10.0.0.9)', 'unidentified (10.0.0.7)'];
    for (let i = 0; i < 12; i++) {
      await store.recordAudit({ at: at(T0 + i * 60_000), actor: actors[i % actors.length]!, action: i % 3 === 0 ? 'signed in' : 'requeued', subject: `s${i}`, detail: null });
    }
    const subjects = (page: { rows: Array<{ subject: string | null }> }) => page.rows.map((row) => row.subject);

    const first = await store.searchAudit({ limit: 5 });
    expect(subjects(first)).toEqual(['s11', 's10', 's9', 's8', 's7']);
    const second = await store.searchAudit({ limit: 5, before: first.last! });
    expect(subjects(second)).toEqual(['s6', 's5', 's4', 's3', 's2']);
    const third = await store.searchAudit({ limit: 5, before: second.last! });
    expect(subjects(third)).toEqual(['s1', 's0']);
    expect(third.last).toBeNull();

    // An operator's rows wherever they acted, not another name that starts alike; a % in a name is itself.
    expect(subjects(await store.searchAudit({ operator: 'kim', limit: 50 }))).toEqual(['s8', 's7', 's6', 's2', 's1', 's0']);
    expect(subjects(await store.searchAudit({ operator: 'k%m', limit: 50 }))).toEqual(['s10', 's4']);
    expect(subjects(await store.searchAudit({ operator: 'k', limit: 50 }))).toEqual([]);
    expect(subjects(await store.searchAudit({ action: 'signed in', limit: 50 }))).toEqual(['s9', 's6', 's3', 's0']);
    expect(subjects(await store.searchAudit({ from: at(T0 + 3 * 60_000), to: at(T0 + 6 * 60_000), limit: 50 }))).toEqual(['s5', 's4', 's3']);
    const narrowed = await store.searchAudit({ operator: 'kim', action: 'signed in', from: at(T0 + 60_000), limit: 1 });
    expect(subjects(narrowed)).toEqual(['s6']);
    expect(subjects(await store.searchAudit({ operator: 'kim', action: 'signed in', from: at(T0 + 60_000), limit: 1, before: narrowed.last! }))).toEqual([]);
  });

  test("the operator filter matches the operator exactly, never another whose name starts with this one's and ' ('", async () => {
    // `s3opsX (10.9.9.9)` is also an operator's name: signed in from 127.0.0.1, it acts as the last actor.
    const actors = ['s3opsX (10.9.9.9)', 's3opsX (10.9.9.9) (127.0.0.1)', 's3opsX (cli)', 's3ops_ (cli)', 's3opsA (cli)', 's3ops% (10.0.0.1)', 's3opsAB (10.0.0.1)', 'cli'];
    for (const [i, actor] of actors.entries()) await store.recordAudit({ at: at(T0 + i * 60_000), actor, action: 'signed in', subject: `s${i}`, detail: null });
    const subjects = async (operator: string) => (await store.searchAudit({ operator, limit: 50 })).rows.map((row) => row.subject);

    await expect(subjects('s3opsX')).resolves.toEqual(['s2', 's0']);
    await expect(subjects('s3opsX (10.9.9.9)')).resolves.toEqual(['s1']);
    await expect(subjects('s3ops_')).resolves.toEqual(['s3']);
    await expect(subjects('s3ops%')).resolves.toEqual(['s5']);
    await expect(subjects('s3ops')).resolves.toEqual([]);
    await expect(subjects('cli')).resolves.toEqual(['s7']);
  });

  test('a hundred days later, old delivered events, rejections and conflicts lose their bodies and data but stay duplicates', async () => {
    const old = inboxEntry({ pgCno: 'PG-OLD', shopOrderNo: 'ORDER-OLD', receivedAt: at(T0), data: { cardNo: '4111111111111111' } });
    const oldPending = inboxEntry({ pgCno: 'PG-OLD-PENDING', receivedAt: at(T0) });
    await store.record(old);
    await deliverAll(T0 + 1000);
    await store.record(oldPending);
    await store.record(inboxEntry({ pgCno: 'PG-OLD', receivedAt: at(T0 + 5000), data: { cardNo: '4111111111111111', resMsg: 'different' } }));
    await store.recordRejection(rejectionEntry({ receivedAt: at(T0) }));
    const recent = inboxEntry({ pgCno: 'PG-NEW', receivedAt: at(T0 + 95 * DAY_MS) });
    await store.record(recent);

    const run = await runRetention(store, { days: 90, now: new Date(T0 + 100 * DAY_MS) });

    expect(run).toMatchObject({ events: 1, rejections: 1, conflicts: 1, cutoff: at(T0 + 10 * DAY_MS) });
    await expect(store.lastRetentionRun()).resolves.toEqual(run);
    const pruned = (await store.getEvent(old.event.id))!;
    expect(Buffer.from(pruned.rawBody).length).toBe(0);
    expect(pruned.event.data).toEqual({});
    expect(pruned.event).toMatchObject({ shopOrderNo: 'ORDER-OLD', pgCno: 'PG-OLD' });
    // When, so the console and the CLI can say a conflict's bodies were pruned instead of comparing nothing.
    expect(pruned.prunedAt).toBe(at(T0 + 100 * DAY_MS));
    expect((await store.getEvent(recent.event.id))!.prunedAt).toBeNull();
    const [conflict] = await store.listConflicts();
    expect((await store.getConflict(conflict!.id))!.prunedAt).toBe(at(T0 + 100 * DAY_MS));
    expect(Buffer.from((await store.getEvent(oldPending.event.id))!.rawBody).length).toBeGreaterThan(0);
    expect(Buffer.from((await store.getEvent(recent.event.id))!.rawBody).length).toBeGreaterThan(0);
    expect((await store.listRejections())[0]!.rawBody).toBeNull();
    expect(JSON.stringify(await store.listConflicts())).not.toContain('4111111111111111');

    // The gateway's portal resends the old approval: the dedup key and body hash are still there.
    await expect(store.record(old)).resolves.toEqual({ outcome: 'duplicate', eventId: old.event.id });
    expect((await store.nextPending(10)).map((row) => row.eventId)).toEqual([oldPending.event.id, recent.event.id]);

    // Nothing left to prune: a second run the same day removes nothing.
    await expect(runRetention(store, { days: 90, now: new Date(T0 + 100 * DAY_MS) })).resolves.toMatchObject({ events: 0, rejections: 0, conflicts: 0 });

    // The old event the queue had not taken yet is pruned by the first run after it did; the new one stays whole.
    await deliverAll(T0 + 100 * DAY_MS);
    await expect(runRetention(store, { days: 90, now: new Date(T0 + 100 * DAY_MS + 3600_000) })).resolves.toMatchObject({ events: 1, rejections: 0, conflicts: 0 });
    expect(Buffer.from((await store.getEvent(oldPending.event.id))!.rawBody).length).toBe(0);
    expect(Buffer.from((await store.getEvent(recent.event.id))!.rawBody).length).toBeGreaterThan(0);
  });
}
