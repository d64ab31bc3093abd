import Database from 'better-sqlite3';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { StoreUnavailable, type Store } from '../../src/store/store';
import { eventually } from '../helpers/eventually';
import { inboxEntry } from '../helpers/stored-events';

/** The longest the event loop went without running a 5 ms timer while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = Date.now();
  let longest = 0;
  const timer = setInterval(() => {
    longest = Math.max(longest, Date.now() - last);
    last = Date.now();
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return longest;
}

/** The WAL header's checkpoint sequence number: SQLite increments it each time it rewinds the WAL. */
function walCheckpointSequence(walFile: string): number {
  const fd = openSync(walFile, 'r');
  try {
    const header = Buffer.alloc(16);
    readSync(fd, header, 0, 16, 0);
    return header.readUInt32BE(12);
  } finally {
    closeSync(fd);
  }
}

describe('the SQLite writer', () => {
  let dir: string;
  let file: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'noti-writer-'));
    file = join(dir, 'receiver.db');
    store = openSqliteStore(file);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a database locked by another process fails markDelivered within seconds, without freezing the event loop', async () => {
    await store.record(inboxEntry({ pgCno: 'L1' }));
    const [row] = await store.nextPending(1);
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    try {
      let rejected: unknown = null;
      let tookMs = 0;
      const stall = await longestStall(async () => {
        const started = Date.now();
        const marking = store.markDelivered([row!.seq], new Date().toISOString()).catch((error: unknown) => (rejected = error));
        // Writes queued behind it share its fate at once, not one busy timeout each.
        const queued = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => store.record(inboxEntry({ pgCno: `Q${i}` }))));
        expect(queued.every((result) => result.status === 'rejected')).toBe(true);
        // Reads go on while the writer waits for the lock.
        await expect(store.nextPending(1)).resolves.toHaveLength(1);
        await expect(store.backlog(Date.now())).resolves.toMatchObject({ pending: 1 });
        await marking;
        tookMs = Date.now() - started;
      });
      expect(rejected).toBeInstanceOf(StoreUnavailable);
      expect(String((rejected as Error).message)).toMatch(/locked|busy/);
      expect(tookMs).toBeLessThan(3000);
      // The old store's synchronous busy wait held the loop for the whole 5 s timeout.
      expect(stall).toBeLessThan(200);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    await store.markDelivered([row!.seq], new Date().toISOString());
    await expect(store.backlog(Date.now())).resolves.toMatchObject({ pending: 0 });
  });

  test('a raw body handed to the writer stays intact for its caller and is stored byte for byte', async () => {
    const pool = Buffer.from(`xx${JSON.stringify({ big: 'y'.repeat(5000) })}zz`);
    const entry = { ...inboxEntry({ pgCno: 'B1' }), rawBody: pool.subarray(2, pool.length - 2) };
    const before = Buffer.from(entry.rawBody);
    await store.record(entry);
    expect(entry.rawBody.equals(before)).toBe(true);
    expect((await store.getEvent(entry.event.id))!.rawBody.equals(before)).toBe(true);
  });

  test('writes asked for in one turn reach the writer as one message, and each gets its own answer', async () => {
    const posted = jest.spyOn(Worker.prototype, 'postMessage');
    try {
      const first = inboxEntry({ pgCno: 'C1' });
      const answers = Promise.all([
        store.record(first),
        store.record(inboxEntry({ pgCno: 'C2' })),
        store.record(first),
        store.record(inboxEntry({ pgCno: 'C1', data: { amount: '1' } })),
      ]);
      await expect(answers).resolves.toEqual([
        { outcome: 'accepted', eventId: first.event.id },
        { outcome: 'accepted', eventId: expect.any(String) },
        { outcome: 'duplicate', eventId: first.event.id },
        { outcome: 'conflict', eventId: first.event.id },
      ]);
      const messages = posted.mock.calls.map(([message]) => message as { type: string; writes?: unknown[] });
      expect(messages.filter((m) => m.type === 'writes').map((m) => m.writes!.length)).toEqual([4]);
    } finally {
      posted.mockRestore();
    }
  });

  test('a write that fails among others of its turn fails alone; the others commit', async () => {
    const good = [inboxEntry({ pgCno: 'F1' }), inboxEntry({ pgCno: 'F2' })];
    // An event id that is not its dedup key's (another's, already taken): the procedure refuses it (a 503).
    const clash = inboxEntry({ pgCno: 'F3' });
    const bad = { ...clash, event: { ...clash.event, id: good[0]!.event.id } };
    const answers = await Promise.allSettled([store.record(good[0]!), store.record(bad), store.record(good[1]!)]);
    expect(answers.map((answer) => answer.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const failure = (answers[1] as PromiseRejectedResult).reason as Error;
    expect(failure).toBeInstanceOf(StoreUnavailable);
    expect(failure.message).toMatch(/is not the one of its dedup key/);
    expect(await store.getEvent(good[1]!.event.id)).not.toBeNull();
    await expect(store.backlog(Date.now())).resolves.toMatchObject({ pending: 2 });
  });

  // One pass, or a chain of background passes before the writer's own: either way the WAL rewinds.
  test.each([1, 4])('checkpoints off the commit path keep the WAL from growing without bound (%i background passes before the writer)', async (passesBeforeWriter) => {
    const walFile = join(dir, 'wal.db-wal');
    const small = openSqliteStore(join(dir, 'wal.db'), {
      checkpoints: { intervalMs: 0, restartAfterFrames: 16, passesBeforeWriter },
      walSizeLimitBytes: 256 * 1024,
    });
    try {
      let written = 0;
      const write = () => small.record(inboxEntry({ pgCno: `W${written++}`, data: { note: 'x'.repeat(2000) } }));
      // The first writes run while the checkpointer thread is still starting, which takes longer on
      // a loaded machine than any fixed number of writes: measure from the WAL's first rewind on.
      await write();
      const firstRound = walCheckpointSequence(walFile);
      await eventually(async () => {
        await write();
        return walCheckpointSequence(walFile) !== firstRound;
      }, 20_000, 'the first rewind of the WAL');
      let largest = 0;
      for (let i = 0; i < 300; i++) {
        await write();
        largest = Math.max(largest, statSync(walFile).size);
      }
      // Without checkpoints (wal_autocheckpoint=0 on the writer) these commits leave a WAL of
      // several megabytes; with them it is rewound, and trimmed, again and again.
      expect(largest).toBeLessThan(1024 * 1024);
      await expect(small.backlog(Date.now())).resolves.toMatchObject({ pending: written });
    } finally {
      await small.close();
    }
  });

  test('with the exclusive option, a second store on the same file is refused while the first is open', async () => {
    const serving = openSqliteStore(join(dir, 'served.db'), { exclusive: true });
    try {
      expect(() => openSqliteStore(join(dir, 'served.db'), { exclusive: true })).toThrow(/is in use by another process/);
      // Tools (the CLI) open without it, beside the service.
      const tool = openSqliteStore(join(dir, 'served.db'));
      await tool.close();
    } finally {
      await serving.close();
    }
    await openSqliteStore(join(dir, 'served.db'), { exclusive: true }).close();
  });
});
