import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { fillFile } from '../helpers/tmpfs';

/** A real full disk needs a small filesystem of our own: a tmpfs, which only root may mount. */
function canMount(): boolean {
  if (process.getuid?.() !== 0) {
    console.warn('skipping the full-disk readiness test: it mounts a tmpfs and needs root');
    return false;
  }
  return true;
}

async function post(receiver: SpawnedReceiver): Promise<{ status: number; resCd: string }> {
  const res = await fetch(receiver.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '61.33.205.151' },
    body: JSON.stringify(approvalNotification()),
  });
  return { status: res.status, resCd: ((await res.json()) as { resCd: string }).resCd };
}

const readyz = async (receiver: SpawnedReceiver) => (await fetch(`http://127.0.0.1:${receiver.adminPort}/readyz`)).status;
const readyzStoreError = async (receiver: SpawnedReceiver) =>
  ((await (await fetch(`http://127.0.0.1:${receiver.adminPort}/readyz`)).json()) as { store: { error?: string } }).store.error;

(canMount() ? describe : describe.skip)('readiness on a full disk', () => {
  let dir: string;
  let mountPoint: string;
  let receiver: SpawnedReceiver | null = null;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'full-disk-'));
    mountPoint = join(dir, 'db');
    mkdirSync(mountPoint);
    // Room for the migrated database (the ledger's, the day's money, the search index and the alerts'
    // tables included: 1 MiB no longer held them with the headroom), its WAL and the headroom.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint]);
  });
  afterEach(async () => {
    try {
      if (receiver) {
        receiver.child.kill('SIGKILL');
        await receiver.exited;
      }
    } finally {
      receiver = null;
      execFileSync('umount', [mountPoint]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('/readyz is 503 while commits fail, acks are 5001, and both recover when space returns', async () => {
    receiver = await spawnReceiver(dir, {
      DATABASE_URL: `sqlite:${join(mountPoint, 'receiver.db')}`,
      QUEUE_URL: `file:${join(dir, 'events.ndjson')}`,
    });
    expect(await post(receiver)).toEqual({ status: 200, resCd: '0000' });
    expect(await readyz(receiver)).toBe(200);

    const filler = join(mountPoint, 'filler');
    fillFile(filler);
    expect(await readyz(receiver)).toBe(503);
    expect(await post(receiver)).toEqual({ status: 503, resCd: '5001' });
    // Refused for the headroom, not by luck of which WAL frames were free: deterministic, and it says why.
    expect(await readyzStoreError(receiver)).toMatch(/disk nearly full: \d+ bytes free on .*, writes need at least \d+/);
    expect(await post(receiver)).toEqual({ status: 503, resCd: '5001' });

    unlinkSync(filler);
    // Polled gently: each readiness probe is a real commit, and this filesystem is tiny.
    await eventually(async () => (await readyz(receiver!)) === 200 || (await new Promise((r) => setTimeout(r, 250)), false), 15_000, '/readyz to recover');
    expect(await post(receiver)).toEqual({ status: 200, resCd: '0000' });
  });
});
