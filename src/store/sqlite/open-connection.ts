import Database from 'better-sqlite3';

/**
 * Page cache per connection, in KiB: 2 MiB, not better-sqlite3's 16. The writer works at the ends
 * of ordered indexes and the table's tail, the reader reads recent rows, the checkpointer copies
 * WAL frames without the cache; pages that fall out are read again from the OS's file cache. So
 * the smaller cache costs no throughput and saves memory on every connection (BENCHMARKS.md has
 * the figures).
 */
const PAGE_CACHE_KIB = 2048;

/**
 * WAL + synchronous=FULL: COMMIT returns only after the WAL is fsync'ed, so an ack is never
 * ahead of the disk. Checkpoints are taken off the commit path (wal_autocheckpoint=0, see
 * checkpoint-worker.ts), so a COMMIT never pays for copying pages into the database file.
 */
export function openConnection(
  path: string,
  options: { busyTimeoutMs: number; readOnly?: boolean; setJournalMode?: boolean },
): Database.Database {
  const db = new Database(path);
  // WAL is a property of the file, set once by the start-up connection; asking again needs a
  // lock, and a connection with no busy timeout opened while the writer commits would fail on it.
  if (options.setJournalMode) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  db.pragma('wal_autocheckpoint = 0');
  db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
  db.pragma('foreign_keys = ON');
  if (options.readOnly) db.pragma('query_only = ON');
  return db;
}
