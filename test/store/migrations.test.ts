import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMigrations, type Migration } from '../../src/store/migrations';
import { migrate } from '../../src/store/sqlite/migrate';

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

  describe('a SQLite migration that rebuilds a referenced table', () => {
    const migration = (version: number, sql: string): Migration => ({ version, name: `00${version}_m`, sql, announce: null });
    const parentAndChild = migration(1, `CREATE TABLE parent (id INTEGER PRIMARY KEY, code TEXT UNIQUE);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent (id));
      INSERT INTO parent (id, code) VALUES (1, 'a'), (2, 'b'); INSERT INTO child (parent_id) VALUES (1), (2);`);
    const rebuild = (keep: string) => migration(2, `-- migrate: foreign_keys=off
      CREATE TABLE parent_new (id INTEGER PRIMARY KEY, code TEXT);
      INSERT INTO parent_new SELECT id, code FROM parent WHERE ${keep};
      DROP TABLE parent;
      ALTER TABLE parent_new RENAME TO parent;`);
    const openDb = () => {
      const db = new Database(join(root, 'm.db'));
      db.pragma('foreign_keys = ON');
      return db;
    };

    test('runs with foreign keys off, keeps the references pointing at the new table, and turns them on again', () => {
      const db = openDb();
      const announced: string[] = [];
      migrate(db, { migrations: [parentAndChild, rebuild('1')], onMigration: (m) => announced.push(m.name) });
      expect(announced).toEqual(['001_m', '002_m']);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.prepare('SELECT count(*) AS n FROM child JOIN parent ON parent.id = child.parent_id').get()).toEqual({ n: 2 });
      expect(() => db.prepare('INSERT INTO child (parent_id) VALUES (3)').run()).toThrow(/FOREIGN KEY/);
      db.close();
    });

    test('that would break a reference is rolled back, naming the migration, and foreign keys are on again', () => {
      const db = openDb();
      expect(() => migrate(db, { migrations: [parentAndChild, rebuild('id = 1')] })).toThrow(
        /migration 002_m would leave 1 broken reference\(s\), e\.g\. child row 2 -> parent/,
      );
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.prepare('SELECT version FROM schema_migrations').all()).toEqual([{ version: 1 }]);
      expect(db.prepare('SELECT id, code FROM parent ORDER BY id').all()).toEqual([{ id: 1, code: 'a' }, { id: 2, code: 'b' }]);
      db.close();
    });
  });

  test('a migration says what an operator should hear before it starts', () => {
    writeFileSync(join(root, 'sqlite', '001_a.sql'), '-- announce: rebuilding inbox (one-time)  \nSELECT 1;');
    writeFileSync(join(root, 'sqlite', '002_b.sql'), '-- no announcement\nSELECT 1;');
    expect(readMigrations('sqlite', root).map((m) => m.announce)).toEqual(['rebuilding inbox (one-time)', null]);
  });
});
