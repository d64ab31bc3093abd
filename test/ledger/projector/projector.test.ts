import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEFAULT_LEDGER_SETTINGS } from '../../../src/config/ledger-settings';
import { openStores } from '../../../src/ledger/projector/open-stores';
import { admin, createTestSchema, describePostgres } from '../../store/pg-test-database';
import { projectorContract } from './projector-contract';

describe("the ledger's projector on SQLite", () => {
  projectorContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-projector-'));
    const file = join(dir, 'receiver.db');
    return {
      open: (options) => openStores(`sqlite:${file}`, { ledger: DEFAULT_LEDGER_SETTINGS, projector: options?.projector ?? { pollMs: 50 } }),
      async sql(text, ...params) {
        const db = new Database(file);
        try {
          const statement = db.prepare(text);
          return statement.reader ? (statement.all(...params) as Array<Record<string, unknown>>) : (statement.run(...params), []);
        } finally {
          db.close();
        }
      },
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  });
});

describePostgres("the ledger's projector on PostgreSQL", () => {
  projectorContract(async () => {
    const schema = await createTestSchema();
    return {
      open: (options) => openStores(schema.url, { ledger: DEFAULT_LEDGER_SETTINGS, projector: options?.projector ?? { pollMs: 50 } }),
      sql: (text, ...params) => {
        let n = 0;
        return admin(schema.url, text.replace(/\?/g, () => `$${++n}`), params);
      },
      cleanup: () => schema.drop(),
    };
  });
});
