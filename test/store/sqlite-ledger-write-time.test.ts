import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore } from '../../src/store/create-store';
import { openSqliteDriver } from '../../src/store/sqlite/sqlite-store';
import { entryFor, sampleEvent } from '../helpers/stored-events';

describe("how long the ledger's writes may hold SQLite's writer", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'noti-ledger-write-time-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is shorter once acks commit than while none has', async () => {
    const driver = openSqliteDriver(join(dir, 'store.db'));
    const store = createStore(driver);
    try {
      const idle = driver.ledgerWriteMs();
      // A readiness probe is not an ack.
      await store.ping();
      expect(driver.ledgerWriteMs()).toBe(idle);
      await store.record(entryFor(sampleEvent({ pgCno: 'PG-WRITE-TIME' })));
      expect(driver.ledgerWriteMs()).toBeLessThan(idle);
    } finally {
      await store.close();
    }
  });
});
