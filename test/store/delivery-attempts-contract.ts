import { runRetention } from '../../src/retention/run-retention';
import type { Store } from '../../src/store/store';
import { inboxEntry } from '../helpers/stored-events';
import type { FreshStore } from './store-contract';

const DAY_MS = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2026-08-01T03:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();

export interface FreshStoreWithSql extends FreshStore {
  /** Runs SQL on the same database behind the store's back (to make one of its statements fail). */
  sql(text: string): Promise<void>;
}

/** Every delivery attempt of an event, kept beside the outbox row, on each database. */
export function deliveryAttemptsContract(openFresh: () => Promise<FreshStoreWithSql>): void {
  let store: Store;
  let fresh: FreshStoreWithSql;
  beforeEach(async () => {
    fresh = await openFresh();
    store = fresh.store;
  });
  afterEach(async () => fresh.cleanup());

  const recorded = async (pgCno: string, receivedAt?: string) => {
    const entry = inboxEntry({ pgCno, ...(receivedAt ? { receivedAt } : {}) });
    await store.record(entry);
    const row = (await store.nextPending(100)).find((pending) => pending.eventId === entry.event.id)!;
    return { id: entry.event.id, seq: row.seq };
  };

  test('a retry then a delivery leaves two attempts in order: the retry with its error and next time', async () => {
    const event = await recorded('PG-ATT-1');
    await store.markRetry(event.seq, 'connect ECONNREFUSED 127.0.0.1:5672', T0 + 2000, { at: at(T0), publisher: 'amqp' });
    await store.markDelivered([event.seq], at(T0 + 3000), 'amqp');

    await expect(store.deliveryAttempts(event.id)).resolves.toEqual([
      expect.objectContaining({ attempt: 1, at: at(T0), outcome: 'retry', error: 'connect ECONNREFUSED 127.0.0.1:5672', publisher: 'amqp', retryAt: at(T0 + 2000), actor: null }),
      expect.objectContaining({ attempt: 2, at: at(T0 + 3000), outcome: 'delivered', error: null, publisher: 'amqp', retryAt: null }),
    ]);
    await expect(store.getEvent(event.id)).resolves.toMatchObject({ status: 'delivered', attempts: 2, lastError: null });
    await expect(store.deliveryAttempts('evt_unknown')).resolves.toEqual([]);
  });

  test('without a publisher or a time the attempt still records when it was marked', async () => {
    const event = await recorded('PG-ATT-2');
    const before = Date.now();
    await store.markRetry(event.seq, 'queue down', before + 1000);
    const [attempt] = await store.deliveryAttempts(event.id);
    expect(attempt).toMatchObject({ outcome: 'retry', publisher: null });
    expect(Date.parse(attempt!.at)).toBeGreaterThanOrEqual(before - 1);
  });

  test('a batch delivery adds one attempt per event, in the same commit as the delivery', async () => {
    const events = [await recorded('PG-BATCH-1'), await recorded('PG-BATCH-2'), await recorded('PG-BATCH-3')];
    await store.markDelivered(events.map((event) => event.seq), at(T0), 'file');
    for (const event of events) {
      await expect(store.deliveryAttempts(event.id)).resolves.toEqual([
        expect.objectContaining({ attempt: 1, at: at(T0), outcome: 'delivered', publisher: 'file' }),
      ]);
    }

    // If the history cannot be written, the delivery is not marked either: one transaction.
    const later = [await recorded('PG-BATCH-4'), await recorded('PG-BATCH-5')];
    await fresh.sql('ALTER TABLE delivery_attempts RENAME TO delivery_attempts_away');
    await expect(store.markDelivered(later.map((event) => event.seq), at(T0 + 1000))).rejects.toThrow();
    await fresh.sql('ALTER TABLE delivery_attempts_away RENAME TO delivery_attempts');
    expect((await store.nextPending(10)).map((row) => row.eventId)).toEqual(later.map((event) => event.id));
    for (const event of later) await expect(store.deliveryAttempts(event.id)).resolves.toEqual([]);
  });

  test('a dead event keeps the attempt that killed it, with its error', async () => {
    const event = await recorded('PG-ATT-DEAD');
    await store.markRetry(event.seq, 'timeout', T0 + 1000, { at: at(T0) });
    await store.markDead(event.seq, 'HTTP 400 from the endpoint (312 bytes)', { at: at(T0 + 1000), publisher: 'http' });
    const attempts = await store.deliveryAttempts(event.id);
    expect(attempts.map((a) => [a.attempt, a.outcome, a.error])).toEqual([
      [1, 'retry', 'timeout'],
      [2, 'dead', 'HTTP 400 from the endpoint (312 bytes)'],
    ]);
    expect(attempts[1]).toMatchObject({ publisher: 'http', retryAt: null });
  });

  test('requeue keeps the history and adds who requeued; the next run counts from 1 again', async () => {
    const one = await recorded('PG-RQ-1');
    const two = await recorded('PG-RQ-2');
    const three = await recorded('PG-RQ-3');
    await store.markDead(one.seq, 'refused', { at: at(T0) });
    await store.markDead(two.seq, 'refused', { at: at(T0) });
    await store.markDead(three.seq, 'refused', { at: at(T0) });

    await expect(store.requeue(one.id, { at: at(T0 + 1000), actor: 'kim (127.0.0.1)' })).resolves.toBe(true);
    await expect(store.requeue('evt_unknown', { at: at(T0 + 1000), actor: 'kim' })).resolves.toBe(false);
    await store.markDelivered([one.seq], at(T0 + 2000));
    expect((await store.deliveryAttempts(one.id)).map((a) => [a.attempt, a.outcome, a.actor])).toEqual([
      [1, 'dead', null],
      [null, 'requeued', 'kim (127.0.0.1)'],
      [1, 'delivered', null],
    ]);

    const pgCno = (await store.getEvent(two.id))!.pgCno;
    await expect(store.requeueDeadMatching({ query: pgCno }, { at: at(T0 + 3000), actor: 'lee (10.0.0.2)' })).resolves.toBe(1);
    await expect(store.requeueDead({ at: at(T0 + 4000), actor: 'ops (cli)' })).resolves.toBe(1);
    expect((await store.deliveryAttempts(two.id)).map((a) => [a.outcome, a.at, a.actor])).toEqual([
      ['dead', at(T0), null],
      ['requeued', at(T0 + 3000), 'lee (10.0.0.2)'],
    ]);
    expect((await store.deliveryAttempts(three.id)).map((a) => [a.outcome, a.at, a.actor])).toEqual([
      ['dead', at(T0), null],
      ['requeued', at(T0 + 4000), 'ops (cli)'],
    ]);
    // A requeue with nothing dead adds nothing.
    await expect(store.requeueDead({ actor: 'ops (cli)' })).resolves.toBe(0);
    expect(await store.deliveryAttempts(three.id)).toHaveLength(2);
  });

  test('retention removes the error text of a pruned event\'s attempts and keeps the rest of the history', async () => {
    const old = await recorded('PG-RET-OLD', at(T0));
    const oldDead = await recorded('PG-RET-DEAD', at(T0));
    const recent = await recorded('PG-RET-NEW', at(T0 + 95 * DAY_MS));
    await store.markRetry(old.seq, 'answered 500: {"cardNo":"4111111111111111"}', T0 + 1000, { at: at(T0) });
    await store.markDelivered([old.seq], at(T0 + 1000));
    await store.markDead(oldDead.seq, 'refused 4111111111111111', { at: at(T0) });
    await store.markRetry(recent.seq, 'queue down', T0 + 96 * DAY_MS, { at: at(T0 + 95 * DAY_MS) });

    const now = new Date(T0 + 100 * DAY_MS);
    await expect(runRetention(store, { days: 90, now })).resolves.toMatchObject({ events: 1 });

    const pruned = await store.deliveryAttempts(old.id);
    expect(pruned.map((a) => [a.attempt, a.outcome, a.error, a.prunedAt])).toEqual([
      [1, 'retry', null, now.toISOString()],
      [2, 'delivered', null, now.toISOString()],
    ]);
    // Undelivered events keep everything, as their bodies do: an operator still needs the reason.
    await expect(store.deliveryAttempts(oldDead.id)).resolves.toEqual([expect.objectContaining({ error: 'refused 4111111111111111', prunedAt: null })]);
    await expect(store.deliveryAttempts(recent.id)).resolves.toEqual([expect.objectContaining({ error: 'queue down', prunedAt: null })]);
  });
}
