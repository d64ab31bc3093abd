import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMigrations } from '../../src/store/migrations';

describe('migrations', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'noti-migrations-'));
    mkdirSync(join(root, 'sqlite'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('numbers may have gaps: a feature can land 004 before 003 and each applies in order', () => {
    writeFileSync(join(root, 'sqlite', '004_console.sql'), 'CREATE TABLE audit (id INTEGER);');
    writeFileSync(join(root, 'sqlite', '001_init.sql'), 'CREATE TABLE inbox (id INTEGER);');
    writeFileSync(join(root, 'sqlite', 'notes.txt'), 'not a migration');
    expect(readMigrations('sqlite', root).map((m) => [m.version, m.name])).toEqual([[1, '001_init'], [4, '004_console']]);
  });

  test('two files with one number are refused, naming the number', () => {
    writeFileSync(join(root, 'sqlite', '003_commands.sql'), '');
    writeFileSync(join(root, 'sqlite', '003_console.sql'), '');
    expect(() => readMigrations('sqlite', root)).toThrow('two sqlite migrations are numbered 3');
  });

  test('the shipped SQLite and PostgreSQL migrations have the same numbers', () => {
    expect(readMigrations('sqlite').map((m) => m.version)).toEqual(readMigrations('postgres').map((m) => m.version));
    const db = new Database(':memory:');
    for (const migration of readMigrations('sqlite')) db.exec(migration.sql);
    db.close();
  });
});
