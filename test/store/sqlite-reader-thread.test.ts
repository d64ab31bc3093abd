import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../../src/store/store';
import type { Worker } from 'node:worker_threads';
import { ReaderClient } from '../../src/store/sqlite/reader-client';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { inboxEntry, rejectionEntry } from '../helpers/stored-events';

type Run = (...params: unknown[]) => unknown;

/**
 * Every statement this thread (the event loop) runs, by SQL text. better-sqlite3's statements share
 * one prototype per thread; the writer's and the reader's threads load their own copy of the module,
 * which this does not touch.
 */
function statementsOnThisThread(): { ran: string[]; restore(): void } {
  const scratch = new Database(':memory:');
  const proto = Object.getPrototypeOf(scratch.prepare('SELECT 1')) as Record<'all' | 'get' | 'run', Run>;
  scratch.close();
  const ran: string[] = [];
  const originals = { all: proto.all, get: proto.get, run: proto.run };
  for (const method of ['all', 'get', 'run'] as const) {
    proto[method] = function (this: { source: string }, ...params: unknown[]) {
      ran.push(this.source);
      return originals[method].apply(this, params);
    };
  }
  return { ran, restore: () => Object.assign(proto, originals) };
}

describe('SQLite reads off the event loop', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'noti-reader-'));
    store = openSqliteStore(join(dir, 'receiver.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("an operator's search, counts and lists run on the reader thread; the relay's head and the backlog on the event loop", async () => {
    const entry = inboxEntry({ pgCno: 'PG-READER', shopOrderNo: 'ORDER-READER' });
    await store.record(entry);
    const watch = statementsOnThisThread();
    try {
      await expect(store.searchEvents({ to: '2000-01-01T00:00:00.000Z', limit: 10, offset: 0 })).resolves.toEqual([]);
      await expect(store.eventCounts()).resolves.toEqual({ pending: 1, delivered: 0, dead: 0 });
      await expect(store.listEvents({ shopOrderNo: 'ORDER-READER' })).resolves.toEqual([expect.objectContaining({ eventId: entry.event.id })]);
      const operatorStatements = [...watch.ran];

      await expect(store.nextPending(10)).resolves.toEqual([expect.objectContaining({ eventId: entry.event.id })]);
      await expect(store.backlog(Date.now())).resolves.toMatchObject({ pending: 1, dead: 0 });

      expect(operatorStatements).toEqual([]);
      expect(watch.ran).toEqual([expect.stringMatching(/FROM outbox o JOIN inbox i/), expect.stringMatching(/SELECT \(SELECT count\(\*\) FROM outbox/)]);
    } finally {
      watch.restore();
    }
  });

  test('bodies read on the reader thread arrive as Buffers, as the Store promises and pg gives them', async () => {
    const entry = inboxEntry({ pgCno: 'PG-BODY' });
    await store.record(entry);
    await store.recordRejection(rejectionEntry({ rawBody: Buffer.from('res_cd=0000') }));

    const event = (await store.getEvent(entry.event.id))!;
    expect(Buffer.isBuffer(event.rawBody)).toBe(true);
    expect(event.rawBody.equals(entry.rawBody)).toBe(true);
    const [rejection] = await store.listRejections();
    expect(Buffer.isBuffer(rejection!.rawBody)).toBe(true);
    expect(rejection!.rawBody!.subarray(0, 6).toString('latin1')).toBe('res_cd');
  });

  test('a reader thread that died is replaced by the next read', async () => {
    const reader = new ReaderClient({ path: join(dir, 'receiver.db'), busyTimeoutMs: 0 });
    try {
      await expect(reader.read('listAudit', [10])).resolves.toEqual([]);
      const thread = (reader as unknown as { worker: Worker }).worker;
      const exited = new Promise((resolve) => thread.once('exit', resolve));
      await thread.terminate();
      await exited;
      await expect(reader.read('eventCounts', [])).resolves.toEqual({ pending: 0, delivered: 0, dead: 0 });
      expect((reader as unknown as { worker: Worker }).worker).not.toBe(thread);
    } finally {
      await reader.close();
    }
  });

  test('a read the database refuses is a StoreUnavailable, and the reader goes on serving', async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(join(tmpdir(), 'noti-reader-'));
    const file = join(dir, 'receiver.db');
    store = openSqliteStore(file);
    // Another program drops a table the console reads: the read fails, the thread stays.
    const other = new Database(file);
    other.exec('ALTER TABLE audit_log RENAME TO audit_log_gone');
    await expect(store.listAudit(10)).rejects.toMatchObject({ name: 'StoreUnavailable', message: expect.stringMatching(/sqlite read failed: .*audit_log/) });
    other.exec('ALTER TABLE audit_log_gone RENAME TO audit_log');
    other.close();
    await expect(store.listAudit(10)).resolves.toEqual([]);
  });
});
