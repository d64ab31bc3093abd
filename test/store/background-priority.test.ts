import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LEDGER_SETTINGS } from '../../src/config/ledger-settings';
import { renderOffLoop } from '../../src/console/render/off-loop-pages';
import { openDriver } from '../../src/store/open-store';
import type { StoreDriver } from '../../src/store/driver';
import { BACKGROUND_NICE } from '../../src/thread-priority';
import { createTestSchema, describePostgres } from './pg-test-database';

/**
 * Issue 37: on two cores the ledger's fold and the console's pages took the CPU the acks would
 * otherwise have. Their threads run at a higher nice value than the acks' (the main thread, the
 * SQLite writer). Linux keeps a nice value per thread: field 19 of /proc/self/task/<tid>/stat.
 */
function niceByThread(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // a thread that ended meanwhile
    }
    // Fields after the command name, which is in parentheses, start at field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    nice.set(Number(tid), Number(fields[19 - 3]));
  }
  return nice;
}

/** The nice values of the threads started since `before`. */
function startedSince(before: Map<number, number>): number[] {
  return [...niceByThread()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
}

/** The threads started since `before`, by id. */
function threadsSince(before: Map<number, number>): number[] {
  return [...niceByThread().keys()].filter((tid) => !before.has(tid));
}

const onLinux = process.platform === 'linux' ? describe : describe.skip;

/**
 * The threads a commit started (on SQLite the writer, maybe the checkpointer), then the nice
 * values of those a ledger read started. Another thread may start meanwhile (the checkpointer
 * after the commit, on a busy machine): the ledger's is the one at the background value.
 */
async function ackThenLedgerRead(driver: StoreDriver): Promise<{ ackThreads: number[]; ledgerThreads: number[] }> {
  const beforeAck = niceByThread();
  await driver.write('probeWrite', [new Date().toISOString()]);
  const ackThreads = threadsSince(beforeAck);
  const beforeLedger = niceByThread();
  await driver.ledgerRead('computeLedgerBatch', [10, new Date().toISOString(), DEFAULT_LEDGER_SETTINGS, false]);
  return { ackThreads, ledgerThreads: startedSince(beforeLedger) };
}

onLinux('background threads run below the acks\' priority', () => {
  const mainThread = () => niceByThread().get(process.pid);

  test('on SQLite the ledger\'s read thread is lowered, the writer that commits the acks is not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-priority-'));
    const driver = await openDriver(`sqlite:${join(dir, 'receiver.db')}`);
    try {
      const { ackThreads, ledgerThreads } = await ackThenLedgerRead(driver);
      expect(ledgerThreads).toContain(BACKGROUND_NICE);
      // The writer, read after the ledger's thread started: still at the acks' priority.
      expect(ackThreads.length).toBeGreaterThan(0);
      const nice = niceByThread();
      expect(ackThreads.map((tid) => nice.get(tid))).toEqual(ackThreads.map(() => 0));
      expect(mainThread()).toBe(0);
    } finally {
      await driver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an operator\'s reads (the internal API waits on the same reader) stay at the acks\' priority', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-priority-'));
    const driver = await openDriver(`sqlite:${join(dir, 'receiver.db')}`);
    try {
      const before = niceByThread();
      await driver.read('listRejections', [200]);
      const started = startedSince(before);
      expect(started.length).toBeGreaterThan(0);
      expect(started.every((nice) => nice === 0)).toBe(true);
    } finally {
      await driver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the console\'s page thread is lowered', async () => {
    const before = niceByThread();
    const page = await renderOffLoop('rejections', { actor: 'op', role: 'admin', csrfToken: 'token' }, []);
    expect(page).toContain('<table>');
    expect(startedSince(before)).toContain(BACKGROUND_NICE);
    expect(mainThread()).toBe(0);
  });
});

describePostgres('background threads on PostgreSQL', () => {
  (process.platform === 'linux' ? test : test.skip)('the ledger\'s compute thread is lowered, the main thread that commits the acks is not', async () => {
    const schema = await createTestSchema();
    const driver = await openDriver(schema.url);
    try {
      const { ledgerThreads } = await ackThenLedgerRead(driver);
      expect(ledgerThreads).toContain(BACKGROUND_NICE);
      expect(niceByThread().get(process.pid)).toBe(0);
    } finally {
      await driver.close();
      await schema.drop();
    }
  });
});
