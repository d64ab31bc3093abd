import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { medianOf } from '../../bench/ledger-cost-table';
import { blockTimes } from '../../bench/ledger-long-order';
import { SqliteWalGuard } from '../../bench/sqlite-wal-guard';
import { FrameTally, readIndexHeader, walGrowth } from '../../bench/wal-index';

describe('the ledger cost bench\'s WAL accounting', () => {
  let dir: string;
  let db: Database.Database;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-cost-helpers-'));
    db = new Database(join(dir, 'test.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY, body TEXT)');
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = (rows: number) => {
    const statement = db.prepare('INSERT INTO t (body) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < rows; i += 1) statement.run('x'.repeat(3000));
    })();
  };
  /** What SQLite itself says the WAL holds: its last frame, as a PASSIVE checkpoint reports it. */
  const framesInWal = () => (db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>)[0]!.log;

  it('counts the frames a window adds as SQLite does, though a checkpoint ran inside the window', async () => {
    insert(20);
    const guard = new SqliteWalGuard(join(dir, 'test.db'));
    try {
      await guard.begin();
      insert(50);
      // Would copy the WAL and let the next write rewind it, but for the guard's reader.
      db.pragma('wal_checkpoint(PASSIVE)');
      insert(50);
      const expected = framesInWal();
      const growth = guard.end();
      expect(expected).toBeGreaterThan(100);
      expect(growth.frames).toBe(expected);
      expect(growth.bytes).toBe(32 + expected * (4096 + 24));
    } finally {
      guard.close();
    }
  });

  it('reads the wal-index header as the WAL stands, and its salt changes when the WAL is rewound', () => {
    insert(10);
    const before = readIndexHeader(readFileSync(join(dir, 'test.db-shm')));
    expect(before?.mxFrame).toBe(framesInWal());
    db.pragma('wal_checkpoint(TRUNCATE)');
    insert(3);
    const after = readIndexHeader(readFileSync(join(dir, 'test.db-shm')));
    expect(after?.mxFrame).toBe(framesInWal());
    expect(after?.salt).not.toBe(before?.salt);
  });

  it('tallies frames across rewinds, each generation up to its last sample', () => {
    const tally = new FrameTally();
    tally.sample({ mxFrame: 10, salt: 'a' });
    tally.sample(null);
    tally.sample({ mxFrame: 25, salt: 'a' });
    tally.sample({ mxFrame: 4, salt: 'b' });
    tally.sample({ mxFrame: 9, salt: 'b' });
    expect(tally.frames).toBe(15 + 4 + 5);
    expect(tally.rewinds).toBe(1);
  });

  it('counts a grown WAL\'s frames without its file header', () => {
    expect(walGrowth(0, 32 + 3 * 4120, 4096)).toEqual({ frames: 3, bytes: 32 + 3 * 4120 });
    expect(walGrowth(32 + 4120, 32 + 3 * 4120, 4096)).toEqual({ frames: 2, bytes: 2 * 4120 });
  });
});

describe('the ledger cost bench\'s figures', () => {
  it('splits each batch\'s time, from the later of the previous commit and its first ack, among its inputs', () => {
    // Batch 0 ends at 10 (first ack at 4); batch 1 at 30, its first ack at 12 (after batch 0's commit); batch 2 at 45, acked at 20 (before batch 1's commit).
    const times = blockTimes([10, 30, 45], [4, 5, 12, 14, 20], [0, 0, 1, 1, 2]);
    expect(times).toEqual([3, 3, 9, 9, 15]);
  });

  it('takes the median over the rounds of the figures a store has', () => {
    expect(medianOf([{ v: 3 }, { v: 1 }, { v: 2 }], (r) => r.v)).toBe(2);
    expect(medianOf([{ v: null }], (r) => r.v)).toBeNull();
  });
});
