import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStores } from '../../src/ledger/projector/open-stores';
import { runCli } from '../../src/cli/program';
import { whileBusy } from '../../src/cli/while-busy';
import { StoreUnavailable } from '../../src/store/store';
import { MALL, paid } from '../store/ledger-entries';

/**
 * `ledger rebuild` beside a serving SQLite receiver whose writer holds the write lock past the
 * store's busy timeout (under load, a checkpoint, another command): the page is tried again, not
 * the rebuild abandoned with `sqlite write failed: database is locked` (measured on the isolation
 * bench's rebuild of 100,000 orders at nice 10, which exited 3 after 5.9 s).
 */
describe('ledger rebuild while the database is busy', () => {
  it('waits for the write lock held by another connection and then completes, saying it waited', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-rebuild-busy-'));
    const file = join(dir, 'receiver.db');
    const stores = await openStores(`sqlite:${file}`);
    try {
      for (let i = 0; i < 3; i += 1) await stores.store.record(paid(`ORD-BUSY-${i}`, `PGBUSY${i}`, 1000, i));
      await stores.ledger.caughtUp();
      const holder = new Database(file);
      holder.exec('BEGIN IMMEDIATE');
      let stdout = '';
      let stderr = '';
      // The lock is released once the rebuild says it met it: no wall time decides the test.
      const code = await runCli(['ledger', 'rebuild', '--json'], {
        env: { DATABASE_URL: `sqlite:${file}` },
        stdout: (text) => void (stdout += text),
        stderr: (text) => {
          stderr += text;
          if (text.includes('the database is busy') && holder.inTransaction) holder.exec('COMMIT');
        },
      });
      if (holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
      expect(stderr).toContain('the database is busy (a serving receiver holds its write lock); trying the page again');
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ orders: 3, changed: 0 });
      await expect(stores.ledger.getOrder({ mallId: MALL, shopOrderNo: 'ORD-BUSY-1' })).resolves.toMatchObject({ status: 'paid' });
    } finally {
      await stores.store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('tries a step again only while SQLite says the database is locked, and gives up after forty tries', async () => {
    const locked = new StoreUnavailable('sqlite write failed: database is locked');
    const said: string[] = [];
    const sleeps: number[] = [];
    const sleep = async (ms: number) => void sleeps.push(ms);
    let calls = 0;
    await expect(whileBusy(async () => (++calls < 3 ? Promise.reject(locked) : 'done'), (t) => said.push(t), sleep)).resolves.toBe('done');
    expect(said).toHaveLength(1);
    expect(sleeps).toHaveLength(2);
    const other = new StoreUnavailable('sqlite write failed: disk I/O error');
    await expect(whileBusy(async () => Promise.reject(other), () => {}, sleep)).rejects.toBe(other);
    calls = 0;
    await expect(whileBusy(async () => { calls += 1; throw locked; }, () => {}, sleep)).rejects.toBe(locked);
    expect(calls).toBe(40);
  });
});
