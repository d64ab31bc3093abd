import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/env';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { runSimulation } from '../../src/simulator/run-simulation';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { Store } from '../../src/store/store';

describe('the simulator against a receiver that does not allow its address', () => {
  let dir: string;
  let server: Server;
  let store: Store;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-sim-403-'));
    // The embedded defaults: only the development gateway's address is allowed, not 127.0.0.1.
    const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}` });
    store = openSqliteStore(join(dir, 'receiver.db'));
    server = createApp({ config, store, logger: createLogger({ level: 'error', silent: true }), metrics: createMetrics() }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${config.NOTIFY_PATH}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reports the receiver's reason once, with the fix, instead of one bare line per notification", async () => {
    const summary = await runSimulation({
      url, events: ['10', '20', '30', '40'], count: 4, duplicates: 0, concurrency: 4, gatewayRetries: false, retryIntervalMs: 0,
    });
    // 4 orders of each story: an approval (1), one with 2 partial cancels (3), a deposit (1), an escrow walk (5).
    expect(summary).toMatchObject({ ok: false, failed: 40 });
    expect(summary.problems).toHaveLength(1);
    expect(summary.problems[0]).toMatch(/HTTP 403 resCd 5001: source address 127\.0\.0\.1 is not allowed.*\(40 deliveries\)/);
    expect(summary.hints).toEqual([expect.stringMatching(/EXTRA_ALLOWED_IPS=.*--forwarded-for/)]);
  });

  it('says before each round of resends what failed and how long it waits', async () => {
    const progress: string[] = [];
    const summary = await runSimulation({
      url, events: ['10', '70'], count: 2, duplicates: 0, concurrency: 2, gatewayRetries: true, retryIntervalMs: 1,
      onProgress: (message) => progress.push(message),
    });
    expect(summary).toMatchObject({ ok: false, failed: 4, retried: 36 });
    expect(progress).toHaveLength(9);
    expect(progress[0]).toMatch(/^not acked yet \(HTTP 403.*\); try 2 of 10 in 0\.0 s$/);
    expect(progress[8]).toMatch(/try 10 of 10/);
  });
});
