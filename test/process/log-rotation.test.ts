import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { eventsFileIn, readEventsFile, spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';

async function post(receiver: SpawnedReceiver, body: object): Promise<void> {
  const res = await fetch(receiver.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '61.33.205.151' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

describe('the built service and logrotate', () => {
  let dir: string;
  let receiver: SpawnedReceiver | null = null;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'log-rotation-'))));
  afterEach(async () => {
    if (receiver && receiver.child.exitCode === null && receiver.child.signalCode === null) {
      receiver.child.kill('SIGTERM');
      await receiver.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('SIGHUP after a rename reopens the events file at its path; the service keeps running and forwarding', async () => {
    receiver = await spawnReceiver(dir);
    const sink = eventsFileIn(dir);
    const first = approvalNotification();
    await post(receiver, first);
    // The notification, then its order's status change from the payment ledger.
    await eventually(() => readEventsFile(sink, { whileWriting: true }).length === 2, 10_000, 'the first notification and its order.status_changed in the file');

    renameSync(sink, `${sink}.1`);
    receiver.child.kill('SIGHUP');
    await eventually(() => existsSync(sink), 10_000, 'the events file to be reopened at its path');
    expect(readFileSync(sink, 'utf8')).toBe('');

    const second = approvalNotification();
    await post(receiver, second);
    await eventually(() => readEventsFile(sink, { whileWriting: true }).length === 2, 10_000, 'the second notification and its order.status_changed in the new file');
    const notifications = (file: string) => readEventsFile(file).filter((e) => (e as { type?: string }).type !== 'order.status_changed').map((e) => e.pgCno);
    expect(notifications(sink)).toEqual([second.pgCno]);
    expect(notifications(`${sink}.1`)).toEqual([first.pgCno]);
    expect(receiver.child.exitCode).toBeNull();
  });
});
