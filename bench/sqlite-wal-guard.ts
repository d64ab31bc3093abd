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
const TRUNCATE_ATTEMPTS = 100;

export class SqliteWalGuard {
  private readonly db: Database.Database;
  private readonly pageSize: number;
  private sizeBefore = 0;

  constructor(private readonly file: string) {
    this.db = new Database(file, { timeout: 10_000 });
    this.pageSize = this.db.pragma('page_size', { simple: true }) as number;
  }

  async begin(): Promise<void> {
    // The store's checkpointer or the projector's reader may be at the WAL for a moment.
    for (let attempt = 1; ; attempt += 1) {
      const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
      if (!result?.busy) break;
      if (attempt === TRUNCATE_ATTEMPTS) throw new Error('the WAL could not be emptied before a window: its growth would not be the window\'s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
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
