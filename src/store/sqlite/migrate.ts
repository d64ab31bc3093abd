import type { Database } from 'better-sqlite3';
import { readMigrations, type Migration, type OnMigration } from '../migrations';

/**
 * A migration that rebuilds a table other tables reference (SQLite cannot drop an inline UNIQUE,
 * so it copies the table: https://sqlite.org/lang_altertable.html#otheralter) says so on a line of
 * its own. It runs with foreign keys off, because DROP TABLE on a referenced table would otherwise
 * delete or refuse, and the PRAGMA is ignored inside a transaction; every reference is checked
 * before its COMMIT instead, and foreign keys are on again afterwards.
 */
const FOREIGN_KEYS_OFF = /^-- migrate: foreign_keys=off$/m;

export interface MigrateOptions {
  migrations?: Migration[];
  onMigration?: OnMigration;
}

/** Applies `migrations/sqlite` not yet recorded in schema_migrations, each in its own transaction. */
export function migrate(db: Database, options: MigrateOptions = {}): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((r) => r.version));
  for (const migration of options.migrations ?? readMigrations('sqlite')) {
    if (applied.has(migration.version)) continue;
    options.onMigration?.(migration);
    const foreignKeysOff = FOREIGN_KEYS_OFF.test(migration.sql);
    const foreignKeysWere = db.pragma('foreign_keys', { simple: true }) as number;
    if (foreignKeysOff) db.pragma('foreign_keys = OFF');
    try {
      // IMMEDIATE takes the write lock up front, so a second process starting at once waits instead of racing.
      db.transaction(() => {
        db.exec(migration.sql);
        if (foreignKeysOff) assertForeignKeys(db, migration);
        db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
          migration.version,
          migration.name,
          new Date().toISOString(),
        );
      }).immediate();
    } finally {
      if (foreignKeysOff) db.pragma(`foreign_keys = ${foreignKeysWere ? 'ON' : 'OFF'}`);
    }
  }
}

function assertForeignKeys(db: Database, migration: Migration): void {
  const broken = db.pragma('foreign_key_check') as Array<{ table: string; rowid: number; parent: string }>;
  if (broken.length === 0) return;
  const first = broken[0]!;
  throw new Error(
    `migration ${migration.name} would leave ${broken.length} broken reference(s), e.g. ${first.table} row ${first.rowid} -> ${first.parent}; nothing was changed`,
  );
}
