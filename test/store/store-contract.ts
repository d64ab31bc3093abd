import { StoreUnavailable, type Store } from '../../src/store/store';
import { inboxEntry, rejectionEntry } from '../helpers/stored-events';

export interface FreshStore {
  store: Store;
  /** Closes the store and removes what it stored. */
  cleanup(): Promise<void>;
}

/**
 * What every Store must do, whatever the database: the HTTP layer and the relay rely on these
 * and nothing else. Run it with a factory that returns an empty store each time.
 */
export function storeContract(openFresh: () => Promise<FreshStore>): void {
  let store: Store;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    ({ store, cleanup } = await openFresh());
  });
  afterEach(async () => {
    await cleanup();
  });

  const pendingIds = async () => (await store.nextPending(100)).map((row) => row.eventId);

  test('a new notification is accepted and queued once with its event', async () => {
    const entry = inboxEntry({ pgCno: 'A1', amount: 5000 });
    await expect(store.record(entry)).resolves.toEqual({ outcome: 'accepted', eventId: entry.event.id });
    const [row, ...rest] = await store.nextPending(10);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      eventId: entry.event.id, eventType: entry.event.type, receivedAt: entry.event.receivedAt, attempts: 0, nextAttemptAt: 0,
    });
    expect(JSON.parse(row!.eventJson)).toEqual(entry.event);
  });

  test('a redelivery with the same body is a duplicate: counted, not queued again', async () => {
    const entry = inboxEntry({ pgCno: 'A2' });
    await store.record(entry);
    await expect(store.record(entry)).resolves.toEqual({ outcome: 'duplicate', eventId: entry.event.id });
    await expect(store.record(entry)).resolves.toEqual({ outcome: 'duplicate', eventId: entry.event.id });
    expect(await pendingIds()).toEqual([entry.event.id]);
    expect((await store.getEvent(entry.event.id))?.redeliveries).toBe(2);
    expect(await store.listConflicts()).toEqual([]);
  });

  test('a redelivery with a different body is a conflict: kept for review, not queued again', async () => {
    const original = inboxEntry({ pgCno: 'A3', data: { amount: '12000' } });
    const changed = inboxEntry({ pgCno: 'A3', data: { amount: '13000' } });
    await store.record(original);
    await expect(store.record(changed)).resolves.toEqual({ outcome: 'conflict', eventId: original.event.id });
    expect(await pendingIds()).toEqual([original.event.id]);
    const [conflict, ...rest] = await store.listConflicts();
    expect(rest).toEqual([]);
    // A list's line: the redelivery's own order number, without its body and event.
    expect(await store.listConflictLines(10)).toEqual([{ id: conflict!.id, eventId: original.event.id, receivedAt: conflict!.receivedAt, sourceIp: '203.233.72.150', shopOrderNo: changed.event.shopOrderNo }]);
    expect(conflict).toMatchObject({
      eventId: original.event.id,
      dedupKey: changed.dedupKey,
      sourceIp: '203.233.72.150',
      contentType: changed.contentType,
      rawBody: changed.rawBody,
      event: changed.event,
    });
    await expect(store.getConflict(conflict!.id)).resolves.toEqual(conflict);
    await expect(store.getConflict(conflict!.id + 1000)).resolves.toBeNull();
    expect((await store.getEvent(original.event.id))?.event).toEqual(original.event);
  });

  test('two partial cancels and two escrow statuses of one payment are four events', async () => {
    const entries = [
      inboxEntry({ notiType: '20', pgCno: 'P1', cancelPgCno: 'C1' }),
      inboxEntry({ notiType: '20', pgCno: 'P1', cancelPgCno: 'C2' }),
      inboxEntry({ notiType: '40', pgCno: 'P1', statusCode: 'ES02' }),
      inboxEntry({ notiType: '40', pgCno: 'P1', statusCode: 'ES03' }),
    ];
    for (const entry of entries) expect((await store.record(entry)).outcome).toBe('accepted');
    expect(new Set(entries.map((entry) => entry.event.id)).size).toBe(4);
    expect(await pendingIds()).toEqual(entries.map((entry) => entry.event.id));
  });

  test('the outbox hands out pending rows in arrival order, due or not, up to the limit', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await store.record(inboxEntry({ pgCno: `ORD${i}` }))).eventId);
    const [first] = await store.nextPending(1);
    await store.markRetry(first!.seq, 'queue down', Date.now() + 60_000);
    const rows = await store.nextPending(3);
    expect(rows.map((row) => row.eventId)).toEqual(ids.slice(0, 3));
    expect(rows[0]).toMatchObject({ attempts: 1, nextAttemptAt: expect.any(Number) });
    expect(rows[0]!.nextAttemptAt).toBeGreaterThan(Date.now());
    expect(rows.map((row) => row.seq)).toEqual([...rows.map((row) => row.seq)].sort((a, b) => a - b));
  });

  test('delivered and dead rows leave the pending queue; the event list shows their state', async () => {
    const a = inboxEntry({ pgCno: 'D1' });
    const b = inboxEntry({ pgCno: 'D2' });
    const c = inboxEntry({ pgCno: 'D3' });
    for (const entry of [a, b, c]) await store.record(entry);
    const [rowA, rowB] = await store.nextPending(2);
    await store.markRetry(rowA!.seq, 'timeout', 0);
    await store.markDelivered([rowA!.seq], '2026-11-21T03:00:01.000Z');
    await store.markDead(rowB!.seq, 'rejected by broker');
    expect(await pendingIds()).toEqual([c.event.id]);
    await expect(store.getEvent(a.event.id)).resolves.toMatchObject({
      status: 'delivered', attempts: 2, lastError: null, deliveredAt: '2026-11-21T03:00:01.000Z',
    });
    await expect(store.getEvent(b.event.id)).resolves.toMatchObject({ status: 'dead', attempts: 1, lastError: 'rejected by broker' });
  });

  test('requeue puts an event back in the queue at its first attempt; requeueDead revives every dead row', async () => {
    const a = inboxEntry({ pgCno: 'R1' });
    const b = inboxEntry({ pgCno: 'R2' });
    const c = inboxEntry({ pgCno: 'R3' });
    for (const entry of [a, b, c]) await store.record(entry);
    const [rowA, rowB, rowC] = await store.nextPending(3);
    await store.markDelivered([rowA!.seq], new Date().toISOString());
    await store.markDead(rowB!.seq, 'bad');
    await store.markDead(rowC!.seq, 'bad');

    await expect(store.requeue(a.event.id)).resolves.toBe(true);
    await expect(store.requeue('evt_unknown')).resolves.toBe(false);
    expect(await store.nextPending(10)).toEqual([expect.objectContaining({ eventId: a.event.id, attempts: 0, nextAttemptAt: 0 })]);
    expect((await store.getEvent(a.event.id))?.deliveredAt).toBeNull();

    await expect(store.requeueDead()).resolves.toBe(2);
    await expect(store.requeueDead()).resolves.toBe(0);
    expect(await pendingIds()).toEqual([a.event.id, b.event.id, c.event.id]);
  });

  test('backlog counts pending and dead rows and ages the oldest pending one', async () => {
    await expect(store.backlog(Date.now())).resolves.toEqual({ pending: 0, dead: 0, oldestPendingAgeMs: null });
    const oldest = Date.parse('2026-11-21T03:00:00.000Z');
    await store.record(inboxEntry({ pgCno: 'B1', receivedAt: new Date(oldest).toISOString() }));
    await store.record(inboxEntry({ pgCno: 'B2', receivedAt: new Date(oldest + 5000).toISOString() }));
    await store.record(inboxEntry({ pgCno: 'B3', receivedAt: new Date(oldest + 9000).toISOString() }));
    const [, second] = await store.nextPending(2);
    await store.markDead(second!.seq, 'bad');
    await expect(store.backlog(oldest + 60_000)).resolves.toEqual({ pending: 2, dead: 1, oldestPendingAgeMs: 60_000 });
  });

  test('rejections keep the raw request, newest first, and record who reprocessed them', async () => {
    const first = await store.recordRejection(rejectionEntry({ reason: 'first' }));
    const tooLarge = await store.recordRejection(rejectionEntry({ rawBody: null, httpStatus: 413, reason: 'too large', contentType: null }));
    expect(tooLarge).not.toBe(first);
    const rows = await store.listRejections();
    expect(rows.map((row) => row.id)).toEqual([tooLarge, first]);
    expect(rows[1]).toMatchObject({ rawBody: Buffer.from('{"resCd":'), httpStatus: 400, reason: 'first', reprocessedAt: null });
    expect(rows[0]).toMatchObject({ rawBody: null, contentType: null, httpStatus: 413 });
    await expect(store.listRejections(1)).resolves.toHaveLength(1);
    // A list's lines: the same rows without their bodies (the console's list of 200 copied them all).
    expect(await store.listRejectionLines(10)).toEqual(rows.map(({ id, receivedAt, sourceIp, httpStatus, reason, reprocessedEventId }) => ({ id, receivedAt, sourceIp, httpStatus, reason, reprocessedEventId })));
    await expect(store.listRejectionLines(1)).resolves.toHaveLength(1);

    await store.markRejectionReprocessed(first, 'evt_fixed', '2026-11-21T04:00:00.000Z');
    await expect(store.getRejection(first)).resolves.toMatchObject({ reprocessedAt: '2026-11-21T04:00:00.000Z', reprocessedEventId: 'evt_fixed' });
    await expect(store.getRejection(tooLarge + 1000)).resolves.toBeNull();
  });

  test('listEvents filters by status, type, order number and time, newest first', async () => {
    const approval = inboxEntry({ notiType: '10', pgCno: 'L1', shopOrderNo: 'order-A', receivedAt: '2026-11-21T01:00:00.000Z' });
    const cancel = inboxEntry({ notiType: '20', pgCno: 'L1', cancelPgCno: 'LC1', shopOrderNo: 'order-A', receivedAt: '2026-11-21T02:00:00.000Z' });
    const deposit = inboxEntry({ notiType: '30', pgCno: 'L2', shopOrderNo: 'order-B', receivedAt: '2026-11-21T03:00:00.000Z' });
    for (const entry of [approval, cancel, deposit]) await store.record(entry);
    const [head] = await store.nextPending(1);
    await store.markDelivered([head!.seq], new Date().toISOString());
    const ids = async (filter: Parameters<Store['listEvents']>[0]) => (await store.listEvents(filter)).map((row) => row.eventId);

    expect(await ids({})).toEqual([deposit.event.id, cancel.event.id, approval.event.id]);
    expect(await ids({ status: 'pending' })).toEqual([deposit.event.id, cancel.event.id]);
    expect(await ids({ status: 'delivered' })).toEqual([approval.event.id]);
    expect(await ids({ type: 'payment.changed' })).toEqual([cancel.event.id]);
    expect(await ids({ type: '30' })).toEqual([deposit.event.id]);
    expect(await ids({ shopOrderNo: 'order-A' })).toEqual([cancel.event.id, approval.event.id]);
    expect(await ids({ since: '2026-11-21T02:00:00.000Z' })).toEqual([deposit.event.id, cancel.event.id]);
    expect(await ids({ limit: 1 })).toEqual([deposit.event.id]);

    const [row] = await store.listEvents({ type: '20' });
    expect(row).toEqual({
      seq: expect.any(Number), eventId: cancel.event.id, type: 'payment.changed', notiType: '20', mallId: 'T0001234',
      pgCno: 'L1', shopOrderNo: 'order-A', status: 'pending', attempts: 0, lastError: null,
      receivedAt: '2026-11-21T02:00:00.000Z', deliveredAt: null, redeliveries: 0,
    });
  });

  test('getEvent returns the stored event with its raw bytes and source', async () => {
    const entry = inboxEntry({ pgCno: 'G1', data: { buyerName: '홍길동' } });
    await store.record(entry);
    const detail = await store.getEvent(entry.event.id);
    expect(detail).toMatchObject({ eventId: entry.event.id, event: entry.event, sourceIp: '203.233.72.150', contentType: entry.contentType });
    expect(Buffer.compare(detail!.rawBody, entry.rawBody)).toBe(0);
    await expect(store.getEvent('evt_unknown')).resolves.toBeNull();
  });

  test('a field carrying U+0000 is stored and forwarded intact, never refused', async () => {
    const entry = inboxEntry({ pgCno: 'Z1', shopOrderNo: 'order\u0000-1', data: { buyerName: 'a\u0000b' } });
    await expect(store.record(entry)).resolves.toMatchObject({ outcome: 'accepted' });
    await expect(store.record(entry)).resolves.toMatchObject({ outcome: 'duplicate' });
    expect(JSON.parse((await store.nextPending(1))[0]!.eventJson)).toEqual(entry.event);
    await expect(store.recordRejection(rejectionEntry({ reason: 'bad byte \u0000 in field' }))).resolves.toEqual(expect.any(Number));
  });

  test("the relay's read is cut by the events' size as well as by count, and always carries the head", async () => {
    // Twenty events of just over 64 KiB each: 1.3 MiB in all, past the default page of 1 MiB.
    const large = Array.from({ length: 20 }, (_, i) => inboxEntry({ pgCno: `L${i}`, data: { shopValue1: 'x'.repeat(64 * 1024) } }));
    for (const entry of large) await store.record(entry);
    const ids = large.map((entry) => entry.event.id);
    const page = await store.nextPending(500, 256 * 1024);
    // The page stops at the first row that starts past the budget: 4 rows of just over 64 KiB.
    expect(page.map((row) => row.eventId)).toEqual(ids.slice(0, 4));
    expect((await store.nextPending(500, 1)).map((row) => row.eventId)).toEqual(ids.slice(0, 1));
    expect((await store.nextPending(2, 10 * 1024 * 1024)).map((row) => row.eventId)).toEqual(ids.slice(0, 2));
    const byDefault = (await store.nextPending(500)).map((row) => row.eventId);
    expect(byDefault.length).toBeGreaterThan(4);
    expect(byDefault.length).toBeLessThan(ids.length);
    expect(byDefault).toEqual(ids.slice(0, byDefault.length));
  });

  test('the relay is woken after a commit that added events, not after a duplicate', async () => {
    let wakes = 0;
    store.onNewEvents(() => wakes++);
    const entry = inboxEntry({ pgCno: 'W1' });
    await store.record(entry);
    expect(wakes).toBeGreaterThanOrEqual(1);
    const afterAccept = wakes;
    await store.record(entry);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(wakes).toBe(afterAccept);
    const [row] = await store.nextPending(1);
    await store.markDead(row!.seq, 'bad');
    await store.requeue(entry.event.id);
    expect(wakes).toBeGreaterThan(afterAccept);
  });

  test('writes arriving together commit together, and one bad row never fails its neighbours', async () => {
    const first = inboxEntry({ pgCno: 'N1' });
    const third = inboxEntry({ pgCno: 'N3' });
    const second = inboxEntry({ pgCno: 'N2' });
    // An event id already taken under another dedup key: this write must fail, alone.
    const bad = { ...second, event: { ...second.event, id: first.event.id } };
    const results = await Promise.allSettled([store.record(first), store.record(bad), store.record(third)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailable);
    expect((await store.nextPending(10)).map((row) => row.eventId)).toEqual([first.event.id, third.event.id]);
  });

  test('copies of one notification arriving together are its duplicate and conflict, as when they arrive apart', async () => {
    const original = inboxEntry({ pgCno: 'T1', data: { amount: '12000' } });
    const changed = inboxEntry({ pgCno: 'T1', data: { amount: '13000' } });
    const other = inboxEntry({ pgCno: 'T2' });
    const results = await Promise.all([original, original, changed, other, original].map((entry) => store.record(entry)));
    expect(results).toEqual([
      { outcome: 'accepted', eventId: original.event.id },
      { outcome: 'duplicate', eventId: original.event.id },
      { outcome: 'conflict', eventId: original.event.id },
      { outcome: 'accepted', eventId: other.event.id },
      { outcome: 'duplicate', eventId: original.event.id },
    ]);
    expect(await pendingIds()).toEqual([original.event.id, other.event.id]);
    expect((await store.getEvent(original.event.id))?.redeliveries).toBe(2);
    expect((await store.listConflicts()).map((conflict) => conflict.event)).toEqual([changed.event]);
  });

  test('a bad row among notifications arriving together fails alone; their copies get the outcomes they would have had', async () => {
    const first = inboxEntry({ pgCno: 'M1' });
    const second = inboxEntry({ pgCno: 'M2' });
    const third = inboxEntry({ pgCno: 'M3', data: { amount: '12000' } });
    const bad = { ...second, event: { ...second.event, id: first.event.id } };
    const sent = [first, third, bad, third, inboxEntry({ pgCno: 'M3', data: { amount: '13000' } }), second];
    const results = await Promise.allSettled(sent.map((entry) => store.record(entry)));
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value.outcome : 'rejected'))).toEqual([
      'accepted', 'accepted', 'rejected', 'duplicate', 'conflict', 'accepted',
    ]);
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailable);
    expect(await pendingIds()).toEqual([first.event.id, third.event.id, second.event.id]);
  });

  test('a lone store may run the relay and answers ping', async () => {
    await expect(store.holdsRelayLock()).resolves.toBe(true);
    await expect(store.ping()).resolves.toBeUndefined();
  });
}
