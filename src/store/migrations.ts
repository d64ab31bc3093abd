import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** The text of an `-- announce: …` line: what an operator should hear before a long migration starts. */
  announce: string | null;
}

/** Told about each migration just before it is applied. */
export type OnMigration = (migration: Migration) => void;

/** `migrations/<dialect>/NNN_name.sql`, found from both `src/store` (tests) and `dist/store`. */
const MIGRATIONS_ROOT = resolve(__dirname, '..', '..', 'migrations');

/**
 * Numbers may have gaps (a feature reserves its number before it lands, and each runner applies
 * whatever is not yet recorded, in order); two files with one number are a merge mistake.
 */
export function readMigrations(dialect: 'sqlite' | 'postgres', root = MIGRATIONS_ROOT): Migration[] {
  const dir = join(root, dialect);
  const migrations = readdirSync(dir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .map((file) => {
      const sql = readFileSync(join(dir, file), 'utf8');
      return {
        version: Number.parseInt(file, 10),
        name: file.replace(/\.sql$/, ''),
        sql,
        announce: /^-- announce: (.+)$/m.exec(sql)?.[1]?.trim() ?? null,
      };
    })
    .sort((a, b) => a.version - b.version);
  const duplicate = migrations.find((migration, i) => i > 0 && migrations[i - 1]!.version === migration.version);
  if (duplicate) throw new Error(`two ${dialect} migrations are numbered ${duplicate.version}: renumber one`);
  return migrations;
}
