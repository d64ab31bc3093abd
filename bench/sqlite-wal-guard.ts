import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { walGrowth } from './wal-index';

/**
 * Counts what one window of work adds to a SQLite WAL, exactly: before it, a TRUNCATE checkpoint
 * empties the WAL, then this connection opens a read transaction and holds it through the window.
 * A checkpoint must not copy pages over the database file under that reader, nor a writer rewind
 * the WAL, so the WAL only grows: its size growth is the window's frames. Only for short windows
 * on a quiet store (the checkpoint waits for the writer; the WAL grows while held).
 */
export class SqliteWalGuard {
  private readonly db: Database.Database;
  private readonly pageSize: number;
  private sizeBefore = 0;

  constructor(private readonly file: string) {
    this.db = new Database(file, { timeout: 10_000 });
    this.pageSize = this.db.pragma('page_size', { simple: true }) as number;
  }

  begin(): void {
    const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
    if (result?.busy) process.stderr.write('[ledger-cost] the WAL could not be emptied before a window: its growth may count earlier frames\n');
    this.db.exec('BEGIN');
    this.db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
    this.sizeBefore = this.walSize();
  }

  end(): { frames: number; bytes: number } {
    const growth = walGrowth(this.sizeBefore, this.walSize(), this.pageSize);
    this.db.exec('COMMIT');
    return growth;
  }

  close(): void {
    this.db.close();
  }

  private walSize(): number {
    try {
      return statSync(`${this.file}-wal`).size;
    } catch {
      return 0;
    }
  }
}
