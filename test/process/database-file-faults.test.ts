import { copyFileSync, mkdtempSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';

async function post(receiver: SpawnedReceiver, body: unknown): Promise<{ status: number; resCd: string }> {
  const res = await fetch(receiver.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '61.33.205.151' },
    body: JSON.stringify(body),
  });
  return { status: res.status, resCd: ((await res.json()) as { resCd: string }).resCd };
}

const readyz = async (receiver: SpawnedReceiver) => (await fetch(`http://127.0.0.1:${receiver.adminPort}/readyz`)).status;

async function stop(receiver: SpawnedReceiver): Promise<void> {
  if (receiver.child.exitCode === null && receiver.child.signalCode === null) receiver.child.kill('SIGKILL');
  await receiver.exited;
}

describe('the built service and its SQLite file', () => {
  let dir: string;
  const started: SpawnedReceiver[] = [];
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'db-faults-'))));
  afterEach(async () => {
    await Promise.all(started.splice(0).map(stop));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a second process on the same file refuses to start with one line; after a kill -9 of the first, a new one starts', async () => {
    const first = await spawnReceiver(dir);
    started.push(first);
    await expect(spawnReceiver(dir)).rejects.toThrow(
      /exited with 1: payment-noti-receiver: could not start: database \S+receiver\.db is in use by another process[^\n]*\n$/,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    // The OS released the lock with the process: nothing stale to clean up by hand.
    const next = await spawnReceiver(dir);
    started.push(next);
    expect((await post(next, approvalNotification())).resCd).toBe('0000');
  });

  it.each([
    ['the database file deleted', (db: string) => unlinkSync(db)],
    // A restore from backup: another file (same tables, same rows) renamed over the path.
    ['the database file replaced', (db: string) => {
      copyFileSync(db, `${db}-restored`);
      renameSync(`${db}-restored`, db);
    }],
    // The write-ahead log holds every commit since the last checkpoint: new ones would land in a file nobody can find.
    ['its WAL file deleted', (db: string) => unlinkSync(`${db}-wal`)],
  ])('%s under the running service: acks stop (503/5001), readiness fails, an error is logged', async (_how, fault) => {
    const receiver = await spawnReceiver(dir);
    started.push(receiver);
    const db = join(dir, 'data', 'receiver.db');
    expect(await post(receiver, approvalNotification())).toEqual({ status: 200, resCd: '0000' });
    expect(await readyz(receiver)).toBe(200);

    fault(db);

    for (let i = 0; i < 5; i++) expect(await post(receiver, approvalNotification())).toEqual({ status: 503, resCd: '5001' });
    expect(await readyz(receiver)).toBe(503);
    const errors = await eventually(() => {
      const found = receiver.logs().filter((line) => line.level === 'error' && /was (deleted|replaced) while the service had it open/.test(String(line.error)));
      return found.length > 0 ? found : undefined;
    }, 5000, 'an error log naming the database file');
    expect(errors[0]!.error).toContain('data/receiver.db');
  });

  it('the WAL deleted during a burst, then a kill -9: every notification answered 0000 is in the database after the restart', async () => {
    const receiver = await spawnReceiver(dir);
    started.push(receiver);
    const db = join(dir, 'data', 'receiver.db');
    const acked: string[] = [];
    let refused = 0;
    let deleted = false;
    let sent = 0;
    const sender = async () => {
      while (refused < 20 && sent++ < 2000) {
        const body = approvalNotification();
        const answer = await post(receiver, body);
        if (answer.resCd === '0000') {
          // Nothing may be acked once the service could have noticed; before, what was acked must survive.
          acked.push(body.pgCno);
        } else {
          expect(answer).toEqual({ status: 503, resCd: '5001' });
          refused += 1;
        }
        if (!deleted && acked.length >= 150) {
          deleted = true;
          unlinkSync(`${db}-wal`);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, sender));
    expect(deleted).toBe(true);
    expect(await readyz(receiver)).toBe(503);
    const errors = await eventually(() => {
      const found = receiver.logs().filter((line) => line.level === 'error' && /WAL file \S+receiver\.db-wal was deleted/.test(String(line.error)));
      return found.length > 0 ? found : undefined;
    }, 5000, 'an error log naming the WAL file');
    expect(errors[0]!.error).toMatch(/every committed write was copied into the database file first/);

    receiver.child.kill('SIGKILL');
    await receiver.exited;
    // The restarted service opens the same file with a new WAL and serves again.
    const next = await spawnReceiver(dir);
    started.push(next);
    expect((await post(next, approvalNotification())).resCd).toBe('0000');
    expect(await readyz(next)).toBe(200);
    const reader = new Database(db, { readonly: true });
    const stored = new Set((reader.prepare('SELECT pg_cno FROM inbox').all() as Array<{ pg_cno: string }>).map((row) => row.pg_cno));
    reader.close();
    expect(acked.filter((pgCno) => !stored.has(pgCno))).toEqual([]);
    expect(acked.length).toBeGreaterThanOrEqual(150);
  });
});
