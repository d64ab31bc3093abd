import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/observability/logger';
import { normalizeNotification } from '../../src/notifications/normalize';
import { validateNotification } from '../../src/notifications/schema';
import { bodyHash } from '../../src/notifications/dedup-key';
import { PermanentPublishError, type OutboundEvent, type Publisher } from '../../src/publishers/publisher';
import { startRelay } from '../../src/relay/relay';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { Store } from '../../src/store/store';
import { eventually } from '../helpers/eventually';

/** A destination whose answers the test scripts: the relay's logic is under test, not a broker. */
function scriptedPublisher(answer: (event: OutboundEvent, call: number) => Error | null) {
  const received: OutboundEvent[] = [];
  let calls = 0;
  const publisher: Publisher = {
    kind: 'scripted',
    async publish(event) {
      calls += 1;
      const error = answer(event, calls);
      if (error) throw error;
      received.push(event);
    },
    status: () => ({ connected: true }),
    close: async () => undefined,
  };
  return { publisher, received, calls: () => calls };
}

async function recordApprovals(store: Store, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const valid = validateNotification(approvalNotification(), { mallIds: [] });
    if (!valid.ok) throw new Error('fixture invalid');
    const { event, dedupKey } = normalizeNotification(valid.value, { receivedAt: new Date().toISOString(), sourceIp: '61.33.205.151', environment: 'development' });
    await store.record({ dedupKey, event, bodyHash: bodyHash(event.data), rawBody: Buffer.from('{}'), contentType: 'application/json' });
    ids.push(event.id);
  }
  return ids;
}


describe('relay', () => {
  let dir: string;
  let store: Store;
  const logger = createLogger({ level: 'error', silent: true });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'relay-'));
    store = openSqliteStore(join(dir, 'r.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('retries a failing head with backoff and never lets the events behind it overtake', async () => {
    const ids = await recordApprovals(store, 5);
    // The third event fails four times before the destination takes it.
    let failures = 0;
    const dest = scriptedPublisher((event) => (event.id === ids[2] && failures++ < 4 ? new Error('broker away') : null));
    const relay = startRelay({ store, publisher: dest.publisher, logger, backoff: { baseMs: 5, maxMs: 20 }, pollIntervalMs: 20 });
    await eventually(() => dest.received.length === 5, 5_000);
    await relay.stop();
    expect(dest.received.map((e) => e.id)).toEqual(ids);
    const rows = await store.listEvents({});
    expect(rows.every((r) => r.status === 'delivered')).toBe(true);
    expect(rows.find((r) => r.eventId === ids[2])?.attempts).toBe(5);
  });

  it('marks a permanently refused event dead with its error, moves on, and requeue puts it back', async () => {
    const ids = await recordApprovals(store, 3);
    let refuse = true;
    const dest = scriptedPublisher((event) => (refuse && event.id === ids[1] ? new PermanentPublishError('HTTP 400: bad event') : null));
    const relay = startRelay({ store, publisher: dest.publisher, logger, pollIntervalMs: 20 });
    await eventually(() => dest.received.length === 2, 5_000);
    const dead = await store.listEvents({ status: 'dead' });
    expect(dead.map((r) => [r.eventId, r.lastError])).toEqual([[ids[1], 'HTTP 400: bad event']]);
    expect((await store.backlog(Date.now())).dead).toBe(1);

    refuse = false;
    expect(await store.requeue(ids[1]!)).toBe(true);
    await eventually(() => dest.received.length === 3, 5_000);
    await relay.stop();
    expect(dest.received.map((e) => e.id)).toEqual([ids[0], ids[2], ids[1]]);
    expect(await store.requeue('evt_unknown')).toBe(false);
  });

  it('gives up after maxAttempts when configured to, and requeueDead revives every dead row', async () => {
    const ids = await recordApprovals(store, 2);
    let broken = true;
    const dest = scriptedPublisher(() => (broken ? new Error('still down') : null));
    const relay = startRelay({ store, publisher: dest.publisher, logger, maxAttempts: 2, backoff: { baseMs: 1, maxMs: 2 }, pollIntervalMs: 20 });
    await eventually(async () => (await store.backlog(Date.now())).dead === 2, 5_000);
    broken = false;
    expect(await store.requeueDead()).toBe(2);
    await eventually(() => dest.received.length === 2, 5_000);
    await relay.stop();
    expect(dest.received.map((e) => e.id)).toEqual(ids);
  });

  it('hands a due run to a batch publisher in one call, in order, and marks every row delivered', async () => {
    const ids = await recordApprovals(store, 20);
    const batches: string[][] = [];
    const dest = scriptedPublisher(() => null);
    dest.publisher.publishBatch = async (events) => void batches.push(events.map((e) => e.id));
    const relay = startRelay({ store, publisher: dest.publisher, logger, pollIntervalMs: 20 });
    await eventually(() => batches.flat().length === 20, 5_000);
    await relay.stop();
    expect(batches).toEqual([ids]);
    expect((await store.listEvents({ status: 'delivered' })).length).toBe(20);
  });

  it('falls back to one at a time when a batch fails, keeping order and per-event verdicts', async () => {
    const ids = await recordApprovals(store, 6);
    const dest = scriptedPublisher((event) => (event.id === ids[3] ? new PermanentPublishError('HTTP 422') : null));
    dest.publisher.publishBatch = async () => {
      throw new Error('batch refused');
    };
    const relay = startRelay({ store, publisher: dest.publisher, logger, pollIntervalMs: 20 });
    await eventually(() => dest.received.length === 5, 5_000);
    await relay.stop();
    expect(dest.received.map((e) => e.id)).toEqual([ids[0], ids[1], ids[2], ids[4], ids[5]]);
    expect((await store.listEvents({ status: 'dead' })).map((r) => r.eventId)).toEqual([ids[3]]);
  });

  it('stop(drainMs) delivers the backlog before returning', async () => {
    const dest = scriptedPublisher(() => null);
    const relay = startRelay({ store, publisher: dest.publisher, logger, pollIntervalMs: 10_000 });
    const ids = await recordApprovals(store, 20);
    await relay.stop(5_000);
    expect(dest.received.map((e) => e.id)).toEqual(ids);
    expect((await store.backlog(Date.now())).pending).toBe(0);
  });
});
