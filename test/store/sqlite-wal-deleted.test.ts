import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { StoreUnavailable } from '../../src/store/store';
import { eventually } from '../helpers/eventually';
import { entryFor, sampleEvent } from '../helpers/stored-events';

describe('the SQLite WAL deleted under an idle store', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'noti-wal-deleted-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is noticed without waiting for a write, its commits are copied into the database file, and writes are refused', async () => {
    const file = join(dir, 'receiver.db');
    const background: Error[] = [];
    // No background checkpoints: every commit below stays in the WAL until the writer saves it.
    const store = openSqliteStore(file, { onBackgroundError: (error) => background.push(error), checkpoints: { intervalMs: 3_600_000 } });
    const events = Array.from({ length: 30 }, () => sampleEvent());
    try {
      for (const event of events) await store.record(entryFor(event));
      unlinkSync(`${file}-wal`);

      const [error] = await eventually(() => (background.length > 0 ? background : undefined), 5_000, 'the deletion to be reported');
      expect(error).toBeInstanceOf(StoreUnavailable);
      expect(error!.message).toMatch(/database WAL file \S+receiver\.db-wal was (deleted|replaced) while the service had it open; restart the service; every committed write was copied into the database file first/);
      // The database file alone (what a crash would leave: the unlinked WAL goes with the process) holds every commit.
      const copy = join(dir, 'copy.db');
      const source = new Database(file, { readonly: true, fileMustExist: true });
      await source.backup(copy);
      source.close();
      await expect(store.record(entryFor(sampleEvent()))).rejects.toThrow(StoreUnavailable);
      await expect(store.ping()).rejects.toThrow(/WAL file/);
      const reader = new Database(copy, { readonly: true });
      const stored = new Set((reader.prepare('SELECT event_id FROM inbox').all() as Array<{ event_id: string }>).map((row) => row.event_id));
      reader.close();
      expect(events.filter((event) => !stored.has(event.id))).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
