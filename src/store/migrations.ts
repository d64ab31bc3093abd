import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** `migrations/<dialect>/NNN_name.sql`, found from both `src/store` (tests) and `dist/store`. */
export const MIGRATIONS_ROOT = resolve(__dirname, '..', '..', 'migrations');

/**
 * Numbers may have gaps (a feature reserves its number before it lands, and each runner applies
 * whatever is not yet recorded, in order); two files with one number are a merge mistake.
 */
export function readMigrations(dialect: 'sqlite' | 'postgres', root = MIGRATIONS_ROOT): Migration[] {
  const dir = join(root, dialect);
  const migrations = readdirSync(dir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .map((file) => ({
      version: Number.parseInt(file, 10),
      name: file.replace(/\.sql$/, ''),
      sql: readFileSync(join(dir, file), 'utf8'),
    }))
    .sort((a, b) => a.version - b.version);
  const duplicate = migrations.find((migration, i) => i > 0 && migrations[i - 1]!.version === migration.version);
  if (duplicate) throw new Error(`two ${dialect} migrations are numbered ${duplicate.version}: renumber one`);
  return migrations;
}
