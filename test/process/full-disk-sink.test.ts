import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { JSON_BUILDERS } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { canMountTmpfs, mountTmpfs } from '../helpers/tmpfs';

const builders = Object.values(JSON_BUILDERS);

async function sendAll(receiver: SpawnedReceiver, count: number): Promise<number> {
  let acked = 0;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const body = builders[next++ % builders.length]!();
      const res = await fetch(receiver.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '61.33.205.151' },
        body: JSON.stringify(body),
      });
      if (res.status === 200 && ((await res.json()) as { resCd: string }).resCd === '0000') acked += 1;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return acked;
}

interface Readiness {
  publisher: { ok: boolean; detail: string };
  backlog: { pending: number };
}

async function readiness(receiver: SpawnedReceiver): Promise<Readiness> {
  return (await (await fetch(`http://127.0.0.1:${receiver.adminPort}/readyz`)).json()) as Readiness;
}

const suite = 'the built service with its file sink on a disk that fills up';
(canMountTmpfs(suite) ? describe : describe.skip)(suite, () => {
  it('keeps acking, forwards every acked notification as a whole line once space returns, and never a broken one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'full-disk-sink-'));
    const disk = mountTmpfs(256);
    let receiver: SpawnedReceiver | null = null;
    try {
      const sink = join(disk.dir, 'events.ndjson');
      const filler = join(disk.dir, 'filler');
      writeFileSync(filler, Buffer.alloc(150 * 1024));
      receiver = await spawnReceiver(dir, { QUEUE_URL: `file:${sink}`, DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}` });

      expect(await sendAll(receiver, 200)).toBe(200);
      const full = await eventually(async () => {
        const ready = await readiness(receiver!);
        return ready.backlog.pending > 0 && /ENOSPC/.test(ready.publisher.detail) ? ready : undefined;
      }, 20_000, 'the sink to report the full disk');
      expect(full.publisher.ok).toBe(false);

      unlinkSync(filler);
      await eventually(async () => (await readiness(receiver!)).backlog.pending === 0, 60_000, 'the backlog to drain');
      const text = readFileSync(sink, 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      const ids = text.trimEnd().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
      const db = new Database(join(dir, 'receiver.db'), { readonly: true });
      // Every stored event: the 200 notifications and the payment ledger's events about their orders.
      const stored = (db.prepare('SELECT event_id FROM inbox').all() as Array<{ event_id: string }>).map((row) => row.event_id);
      const notifications = db.prepare("SELECT count(*) AS n FROM inbox WHERE origin = 'gateway'").get() as { n: number };
      db.close();
      expect(notifications.n).toBe(200);
      expect(new Set(ids)).toEqual(new Set(stored));
    } finally {
      if (receiver) {
        receiver.child.kill('SIGTERM');
        await receiver.exited;
      }
      disk.unmount();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
