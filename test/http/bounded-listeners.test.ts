import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LISTENER_TIMEOUTS } from '../../src/http/listener-timeouts';
import { startSandbox } from '../../src/sandbox/sandbox-app';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';

/** Every listener of the product bounds its clients as the notification listener does (see slow-connections.test.ts). */
describe("the service's other listeners have the notification listener's time-outs", () => {
  let dir: string;
  let service: SpawnedReceiver | null = null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'noti-listeners-'));
  });
  afterEach(async () => {
    if (service) {
      service.child.kill('SIGKILL');
      await service.exited;
      service = null;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('the admin listener closes the connection after a 401, as the built service runs it', async () => {
    service = await spawnReceiver(dir, {
      DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`,
      QUEUE_URL: `file:${join(dir, 'events.ndjson')}`,
      ADMIN_TOKEN: 'admin-token-0123456789abcdef0123',
    });
    const res = await fetch(`http://127.0.0.1:${service.adminPort}/console/api/overview`);
    expect(res.status).toBe(401);
    expect(res.headers.get('connection')).toBe('close');
  });

  it('the sandbox has them too', async () => {
    const sandbox = await startSandbox();
    try {
      expect(sandbox.server.headersTimeout).toBe(LISTENER_TIMEOUTS.headersMs);
      expect(sandbox.server.requestTimeout).toBe(LISTENER_TIMEOUTS.requestMs);
      expect(sandbox.server.keepAliveTimeout).toBe(LISTENER_TIMEOUTS.keepAliveMs);
    } finally {
      await sandbox.stop();
    }
  });
});
