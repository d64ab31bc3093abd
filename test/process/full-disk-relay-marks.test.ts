import { mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { canMountTmpfs, fillFile, mountTmpfs, type Tmpfs } from '../helpers/tmpfs';

async function post(receiver: SpawnedReceiver): Promise<string> {
  const res = await fetch(receiver.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '61.33.205.151' },
    body: JSON.stringify(approvalNotification()),
  });
  return ((await res.json()) as { resCd: string }).resCd;
}

interface Readiness {
  store: { ok: boolean; error?: string };
  publisher: { ok: boolean; lastError: string | null; detail: string };
  relay: { storeError: string | null; confirmedUnmarked: number };
  backlog: { pending: number } | null;
}

async function readiness(receiver: SpawnedReceiver): Promise<Readiness> {
  return (await (await fetch(`http://127.0.0.1:${receiver.adminPort}/readyz`)).json()) as Readiness;
}

const suite = 'the built service when the database disk fills after the queue took a batch';
(canMountTmpfs(suite) ? describe : describe.skip)(suite, () => {
  it('retries the delivered mark, not the publish: each event is one sink line, and /readyz blames the store, not the sink', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'full-disk-marks-'));
    const disks: Tmpfs[] = [];
    let receiver: SpawnedReceiver | null = null;
    try {
      const dbDisk = mountTmpfs(4096);
      disks.push(dbDisk);
      const sinkDisk = mountTmpfs(256);
      disks.push(sinkDisk);
      const sink = join(sinkDisk.dir, 'events.ndjson');
      receiver = await spawnReceiver(dir, { QUEUE_URL: `file:${sink}`, DATABASE_URL: `sqlite:${join(dbDisk.dir, 'receiver.db')}` });

      // The sink's disk is full: acked notifications wait in the outbox.
      const sinkFiller = join(sinkDisk.dir, 'filler');
      fillFile(sinkFiller);
      const acked: string[] = [];
      for (let i = 0; i < 20; i++) acked.push(await post(receiver));
      expect(acked).toEqual(Array.from({ length: 20 }, () => '0000'));
      // Each notification's outbox rows (its event, and whatever else its transaction queued) are
      // committed with its ack, and none can leave while the sink's disk is full.
      const queued = (await readiness(receiver)).backlog!.pending;
      expect(queued).toBeGreaterThanOrEqual(20);

      // Now the database's disk fills, and then the sink has room again: the queue takes the batch,
      // the store cannot mark it delivered.
      const dbFiller = join(dbDisk.dir, 'filler');
      fillFile(dbFiller);
      unlinkSync(sinkFiller);
      const logs = () => receiver!.logs().filter((line) => line.message === 'relay pass failed; retrying');
      await eventually(() => (logs().length >= 4 ? true : undefined), 30_000, 'four refused marks');

      const failing = await readiness(receiver);
      expect(failing.store.ok).toBe(false);
      expect(failing.relay.storeError).toMatch(/disk nearly full/);
      expect(failing.relay.confirmedUnmarked).toBe(queued);
      // The sink is healthy and said so: no database error under its name.
      expect(failing.publisher).toMatchObject({ ok: true, lastError: null });

      unlinkSync(dbFiller);
      await eventually(async () => ((await readiness(receiver!)).backlog?.pending === 0 ? true : undefined), 60_000, 'the marks to be taken');
      const ids = readFileSync(sink, 'utf8').trimEnd().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
      const lines = new Map<string, number>();
      for (const id of ids) lines.set(id, (lines.get(id) ?? 0) + 1);
      expect(lines.size).toBe(queued);
      expect([...lines.values()]).toEqual(Array.from({ length: queued }, () => 1));
    } finally {
      if (receiver) {
        receiver.child.kill('SIGKILL');
        await receiver.exited;
      }
      for (const disk of disks) disk.unmount();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
