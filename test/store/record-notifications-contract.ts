import { recordNotification } from '../../src/store/procedures/inbox-outbox/record-notification';
import { recordNotifications } from '../../src/store/procedures/inbox-outbox/record-notifications';
import { inboxRow, type InboxRow } from '../../src/store/procedures/inbox-outbox/inbox-row';
import { run } from '../../src/store/procedures/procedure';
import type { RecordResult } from '../../src/store/store';
import { inboxEntry, type EventFields } from '../helpers/stored-events';
import type { ProcedureRunner } from './procedure-runners';

/**
 * How one transaction records a batch of notifications (what group commit hands the store), on
 * either database: the same outcomes and rows as recording the entries one after another.
 */
export function recordNotificationsContract(open: () => Promise<ProcedureRunner>): void {
  const opened: ProcedureRunner[] = [];
  const fresh = async () => {
    const runner = await open();
    opened.push(runner);
    return runner;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((runner) => runner.close()));
  });

  const at = (second: number) => new Date(Date.UTC(2026, 10, 21, 3, 0, second)).toISOString();
  const entry = (pgCno: string, second: number, fields: EventFields = {}) => inboxRow(inboxEntry({ pgCno, receivedAt: at(second), ...fields }));
  const changed = (pgCno: string, second: number) => entry(pgCno, second, { data: { amount: '99999' } });
  const outboxOrder = async (db: ProcedureRunner) =>
    (await db.rows('SELECT o.event_id, i.event_id AS inbox_event_id FROM outbox o JOIN inbox i ON i.seq = o.inbox_seq ORDER BY o.seq'))
      .map((row) => {
        expect(row.inbox_event_id).toBe(row.event_id);
        return row.event_id;
      });

  /** Everything recording leaves behind, without the seqs (which differ between two databases). */
  const storedState = async (db: ProcedureRunner) => ({
    inbox: await db.rows('SELECT event_id, dedup_key, body_hash, received_at, redeliveries, last_redelivered_at FROM inbox ORDER BY seq'),
    outbox: await outboxOrder(db),
    conflicts: await db.rows(`SELECT c.event_id, c.dedup_key, c.received_at, c.body_hash, c.event_json, i.event_id AS stored_event_id
      FROM conflicts c JOIN inbox i ON i.seq = c.inbox_seq ORDER BY c.id`),
  });

  test('copies of one key in a batch: the first is accepted, an equal copy is its duplicate, a changed one its conflict', async () => {
    const db = await fresh();
    const first = entry('K1', 1);
    const results = await db.transaction(recordNotifications([first, entry('K1', 2), changed('K1', 3), entry('K2', 4), entry('K1', 5)]));
    expect(results.map((result) => result.outcome)).toEqual(['accepted', 'duplicate', 'conflict', 'accepted', 'duplicate']);
    expect(new Set(results.filter((_, i) => i !== 3).map((result) => result.eventId))).toEqual(new Set([first.eventId]));
    expect(await db.rows(`SELECT redeliveries, last_redelivered_at FROM inbox WHERE event_id = '${first.eventId}'`))
      .toEqual([{ redeliveries: 2, last_redelivered_at: at(5) }]);
    expect(await db.rows('SELECT event_id, received_at FROM conflicts')).toEqual([{ event_id: first.eventId, received_at: at(3) }]);
    expect(await outboxOrder(db)).toEqual([first.eventId, entry('K2', 4).eventId]);
  });

  test('a batch has exactly the outcomes and rows of recording its entries one by one, in order', async () => {
    const earlier = [entry('S1', 0), entry('S2', 0)];
    const batch = [
      entry('N1', 1), // new
      entry('S1', 2), // the same body as a stored row
      changed('S2', 3), // another body under a stored key
      entry('N2', 4), // new
      entry('N1', 5), // a copy of a key new in this batch
      changed('N2', 6), // another body under a key new in this batch
      entry('S1', 7), // a stored row's second copy: its last redelivery
      changed('N1', 8),
      entry('N3', 9, { notiType: '20', cancelPgCno: 'N3-C1' }),
    ];
    const together = await fresh();
    const oneByOne = await fresh();
    for (const db of [together, oneByOne]) for (const stored of earlier) await db.transaction(recordNotification(stored));

    const batchResults = await together.transaction(recordNotifications(batch));
    const singleResults: RecordResult[] = [];
    for (const item of batch) singleResults.push(await oneByOne.transaction(recordNotification(item)));

    expect(batchResults.map((result) => result.outcome)).toEqual([
      'accepted', 'duplicate', 'conflict', 'accepted', 'duplicate', 'conflict', 'duplicate', 'conflict', 'accepted',
    ]);
    expect(batchResults).toEqual(singleResults);
    expect(await storedState(together)).toEqual(await storedState(oneByOne));
    expect(await outboxOrder(together)).toEqual([...earlier, batch[0]!, batch[3]!, batch[8]!].map((item) => item.eventId));
  });

  test("outbox and inbox rows take the batch's order, each outbox row pointing at its own inbox row", async () => {
    const db = await fresh();
    // Event ids are hashes: in entry order they are in no sorted order, so an index or RETURNING
    // order that leaked into the seqs would show.
    const batch = Array.from({ length: 300 }, (_, i) => entry(`ORD${i}`, i % 60));
    expect((await db.transaction(recordNotifications(batch))).every((result) => result.outcome === 'accepted')).toBe(true);
    const ids = batch.map((item) => item.eventId);
    expect(await outboxOrder(db)).toEqual(ids);
    expect((await db.rows('SELECT event_id FROM inbox ORDER BY seq')).map((row) => row.event_id)).toEqual(ids);
  });

  test("a batch longer than one statement's parameter limit is stored whole, in order, its late copies still duplicates", async () => {
    const db = await fresh();
    // 13 parameters a row: more than 2520 rows exceed SQLite's 32766 bound parameters.
    const batch: InboxRow[] = Array.from({ length: 2600 }, (_, i) => entry(`BIG${i}`, i % 60));
    const results = await db.transaction(recordNotifications([...batch, entry('BIG10', 59)]));
    expect(results.slice(0, 2600).every((result) => result.outcome === 'accepted')).toBe(true);
    expect(results[2600]).toEqual({ outcome: 'duplicate', eventId: batch[10]!.eventId });
    expect(await outboxOrder(db)).toEqual(batch.map((item) => item.eventId));
  });

  test('an event id or pgCno that is not the one of its dedup key fails the whole batch, which then stores nothing', async () => {
    // SQLite's unique key is (pg_cno, event_id): it decides as the event id alone only while both
    // come from the dedup key, so an entry where either does not (a caller's bug) is refused.
    const db = await fresh();
    const stored = entry('E1', 1);
    await db.transaction(recordNotification(stored));
    const other = entry('E2', 2);
    const forged = { ...other, eventId: stored.eventId };
    await expect(db.transaction(recordNotifications([entry('E3', 3), forged]))).rejects.toThrow(/is not the one of its dedup key/);
    // Two entries of one batch under one event id and different keys: the second is refused the same way.
    await expect(db.transaction(recordNotifications([entry('E4', 4), { ...entry('E5', 5), eventId: entry('E4', 4).eventId }])))
      .rejects.toThrow(/is not the one of its dedup key/);
    // The pgCno the unique key indexes must be the dedup key's own.
    await expect(db.transaction(recordNotifications([{ ...entry('E6', 6), pgCno: 'E1' }]))).rejects.toThrow(/is not the one of its dedup key/);
    expect(await outboxOrder(db)).toEqual([stored.eventId]);
  });

  test('a row found under the same pgCno and event id but another dedup key is refused, never taken for a redelivery', async () => {
    // Only a sha256 collision could do this: the stored row is altered to stand for one.
    const db = await fresh();
    const stored = entry('E7', 7);
    await db.transaction(recordNotification(stored));
    await db.transaction(run(`UPDATE inbox SET dedup_key = 'another key' WHERE event_id = ?`, stored.eventId));
    await expect(db.transaction(recordNotifications([entry('E8', 8), entry('E7', 9)]))).rejects.toThrow(/already stored under another dedup key/);
    expect(await outboxOrder(db)).toEqual([stored.eventId]);
  });
}
