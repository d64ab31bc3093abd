import type { Database } from 'better-sqlite3';
import { readMigrations } from '../migrations';

/** Applies `migrations/sqlite` not yet recorded in schema_migrations, each in its own transaction. */
export function migrate(db: Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((r) => r.version));
  for (const migration of readMigrations('sqlite')) {
    if (applied.has(migration.version)) continue;
    // IMMEDIATE takes the write lock up front, so a second process starting at once waits instead of racing.
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }).immediate();
  }
}
