import Database from 'better-sqlite3';

/** Another receiver process already serves this database file. */
class DatabaseInUse extends Error {
  override readonly name = 'DatabaseInUse';
}

/**
 * One serving process per SQLite file: two would both relay and forward every event twice.
 * An exclusive SQLite lock on a sidecar `<db>.lock` file, held by a dedicated connection for the
 * process's life. It is an OS file lock, so the kernel releases it when the process dies, even
 * by kill -9: unlike a pid file it can never go stale. The CLI does not take it (an operator may
 * inspect and requeue while the service runs).
 */
export function holdProcessLock(databasePath: string): { release(): void } {
  const lockPath = `${databasePath}.lock`;
  const db = new Database(lockPath);
  try {
    db.pragma('busy_timeout = 0');
    // The file holds nothing worth a journal; without one it is the only file the lock leaves behind.
    db.pragma('journal_mode = OFF');
    // In EXCLUSIVE locking mode the first write takes the lock and keeps it until the connection closes.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS held_by (pid INTEGER); COMMIT');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw new DatabaseInUse(`database ${databasePath} is in use by another process (it holds ${lockPath}); stop it or point DATABASE_URL elsewhere`);
    }
    throw error;
  }
  return { release: () => db.close() };
}
