import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { kstDay } from '../../src/ledger/summary/kst-day';
import { addDays } from '../../src/ledger/summary/kst-day';
import { runCliCaptured } from '../cli/seeded-receiver';
import { notify } from '../daily-summary/summary-kit';

const MALL = 'T0001234';

describe('summary close and reopen (CLI, SQLite)', () => {
  let dir: string;
  let url: string;
  let stores: Stores;
  const cli = (...args: string[]) => runCliCaptured(args, { DATABASE_URL: url, USER: 'kim' });
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-close-cli-'));
    url = `sqlite:${join(dir, 'receiver.db')}`;
    stores = await openStores(url);
  });
  afterEach(async () => {
    await stores.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('closes a day under the OS user, audited; what arrives later is printed on both days; reopen shows it live again', async () => {
    await stores.store.record(notify.paid({ mallId: MALL, shopOrderNo: 'ORD-1' }, 'PG-1', 12000, 10));
    await stores.ledger.caughtUp();
    const closed = await cli('summary', 'close', '2026-11-22', '--mall', MALL);
    expect(closed.stdout).toContain(`closed 2026-11-22 (${MALL}): net ${MALL} ₩12,000`);
    expect(closed.code).toBe(0);
    expect((await cli('summary', 'close', '2026-11-22', '--mall', MALL)).stdout).toMatch(/was already closed by kim \(cli\) at 20\d\d-/);

    await stores.store.record(notify.paid({ mallId: MALL, shopOrderNo: 'ORD-2' }, 'PG-2', 3000, 20));
    await stores.ledger.caughtUp();
    const today = kstDay(new Date().toISOString());
    const shown = await cli('summary', '--from', '2026-11-22', '--to', today, '--mall', MALL);
    expect(shown.stdout.split('\n')[2]!.split(/\s{2,}/).slice(0, 4)).toEqual(['2026-11-22', MALL, 'KRW', '1 × ₩12,000']);
    expect(shown.stdout).toContain(`2026-11-22  ${MALL}  KRW  closed by kim (cli) at`);
    expect(shown.stdout).toContain(`adjusted later (on ${today}): +₩3,000`);
    expect(shown.stdout).toContain(`${today}  ${MALL}  KRW  adjusts 2026-11-22: +₩3,000; net with adjustments ₩3,000`);
    const audit = await stores.store.listAudit(10);
    expect(audit.map((a) => [a.actor, a.action, a.subject])).toEqual(expect.arrayContaining([['kim (cli)', 'closed day', `2026-11-22 ${MALL}`]]));

    expect((await cli('summary', 'reopen', '2026-11-22', '--mall', MALL)).stdout).toBe(`reopened 2026-11-22 (${MALL})\n`);
    expect((await cli('summary', '--from', '2026-11-22', '--to', '2026-11-22', '--mall', MALL)).stdout.split('\n')[2]!.split(/\s{2,}/)[3]).toBe('2 × ₩15,000');
    const again = await cli('summary', 'reopen', '2026-11-22', '--mall', MALL);
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('2026-11-22 is not closed for T0001234')]);
  });

  test.each([
    [() => kstDay(new Date().toISOString()), 'is not over in Korea yet'],
    [() => addDays(kstDay(new Date().toISOString()), 3), 'is not over in Korea yet'],
    [() => addDays(kstDay(new Date().toISOString()), -400), 'more than 366 days ago'],
    [() => '2026-02-30', '2026-02 has days 01 to 28'],
  ])('a day that cannot be closed is a usage error before the store is read (%#)', async (day, words) => {
    const refused = await cli('summary', 'close', day());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(words);
  });

  test('summary without its range still says what it needs', async () => {
    const bare = await cli('summary');
    expect([bare.code, bare.stderr]).toEqual([2, expect.stringContaining("'--from <yyyy-mm-dd>' and '--to <yyyy-mm-dd>'")]);
  });
});
