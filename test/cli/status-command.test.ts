import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdminApp } from '../../src/admin/admin-app';
import { createMetrics } from '../../src/observability/metrics';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { paid } from '../store/ledger-entries';
import { openStores } from '../../src/ledger/projector/open-stores';
import { runCliCaptured, seededReceiver } from './seeded-receiver';

describe('noti-receiver status', () => {
  let receiver: ReturnType<typeof seededReceiver>;
  let admin: Server;
  let adminUrl: string;

  beforeAll(async () => {
    receiver = seededReceiver({ MALL_IDS: 'T0001234' });
    expect((await receiver.postJson(approvalNotification())).status).toBe(200);
    expect((await receiver.postJson(approvalNotification({ mallId: 'T0009999' }))).status).toBe(400);
    admin = createAdminApp({
      store: receiver.store,
      publisher: { kind: 'amqp', publish: async () => undefined, status: () => ({ connected: false, detail: 'rabbit.internal: ECONNREFUSED' }), close: async () => undefined },
      // A standby: another replica holds the relay lock.
      relay: { state: () => ({ running: true, holdsLock: false, lastError: null, storeError: null, confirmedUnmarked: 0, lastDeliveredAt: null }), wake: () => undefined, stop: async () => undefined },
      metrics: createMetrics(),
      isShuttingDown: () => false,
    }).listen(0, '127.0.0.1');
    await once(admin, 'listening');
    adminUrl = `http://127.0.0.1:${(admin.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => admin.close(resolve));
    await receiver.cleanup();
  });

  it('shows readiness, the publisher, backlog, oldest pending, dead events and the last rejection on one screen', async () => {
    const result = await receiver.cli(['status', '--admin-url', adminUrl]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^receiver +ready \(http:\/\/127\.0\.0\.1:\d+\/readyz\)$/m);
    expect(result.stdout).toMatch(/^store +sqlite ok \(store [0-9a-f]{8}\)$/m);
    // This admin app is not told where its store is (main.ts does), so only its kind and id are compared.
    expect(result.stdout).toMatch(/^read from +sqlite:\S+receiver\.db \(store [0-9a-f]{8}\), the receiver's store$/m);
    expect(result.stdout).toMatch(/^publisher +amqp disconnected: rabbit\.internal: ECONNREFUSED; last delivery none yet$/m);
    expect(result.stdout).toMatch(/^relay +standby \(another replica holds the relay lock\)$/m);
    expect(result.stdout).toMatch(/^backlog +1 pending$/m);
    expect(result.stdout).toMatch(/^oldest pending +\d+\.\d s$/m);
    expect(result.stdout).toMatch(/^dead events +0$/m);
    expect(result.stdout).toMatch(/^last rejection +#1 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d KST HTTP 400 from 127\.0\.0\.1: .*T0009999.* is not one of MALL_IDS/m);
    expect(result.stdout).toMatch(/^open discrepancies +0$/m);
  });

  it("shows whether the gateway listener's loop answers, and fails readiness when it does not", async () => {
    const withListener = async (health: { answering: boolean; loopDelayP99Ms: number | null }) => {
      const server = createAdminApp({
        store: receiver.store,
        publisher: { kind: 'file', publish: async () => undefined, status: () => ({ connected: true }), close: async () => undefined },
        relay: null,
        metrics: createMetrics(),
        isShuttingDown: () => false,
        ingest: { health: async () => health, render: async () => null },
      }).listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        return await receiver.cli(['status', '--admin-url', `http://127.0.0.1:${(server.address() as AddressInfo).port}`]);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    };
    const answering = await withListener({ answering: true, loopDelayP99Ms: 3.25 });
    expect(answering.stdout).toMatch(/^receiver +ready /m);
    expect(answering.stdout).toMatch(/^gateway listener +answering; event loop delay p99 3\.3 ms$/m);
    const stuck = await withListener({ answering: false, loopDelayP99Ms: null });
    expect(stuck.stdout).toMatch(/^receiver +not ready /m);
    expect(stuck.stdout).toMatch(/^gateway listener +NOT ANSWERING: its event loop did not reply within a second; acks are not being answered$/m);
  });

  it('counts the open payment discrepancies by kind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-status-'));
    const stores = await openStores(`sqlite:${join(dir, 'receiver.db')}`);
    const cli = (...args: string[]) => runCliCaptured(args, { DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}` });
    try {
      // Two payments of one order, for two orders: a duplicate_payment each.
      for (const order of ['ORD-ST-1', 'ORD-ST-2']) {
        await stores.store.record(paid(order, `PG${order}A`, 1000, 0));
        await stores.store.record(paid(order, `PG${order}B`, 1000, 1));
      }
      const result = await cli('status', '--admin-url', adminUrl);
      expect(result.stdout).toMatch(/^open discrepancies +2 \(duplicate_payment 2; see "discrepancies list"\)$/m);
      expect((await cli('--json', 'status', '--admin-url', adminUrl)).json()).toMatchObject({ store: { openDiscrepancies: { duplicate_payment: 2 } } });
    } finally {
      await stores.store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives scripts the same in --json', async () => {
    const result = await receiver.cli(['--json', 'status', '--admin-url', adminUrl]);
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({
      receiver: { ready: true, body: { status: 'ready' } },
      store: { ok: true, backlog: { pending: 1, dead: 0 }, lastRejection: { id: 1, httpStatus: 400 } },
    });
  });

  it('still shows what the database holds when the receiver is not running, and exits 1', async () => {
    const closed = await freePort();
    const result = await receiver.cli(['status', '--admin-url', `http://127.0.0.1:${closed}`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^receiver +unreachable: ECONNREFUSED/m);
    expect(result.stdout).toMatch(/^backlog +1 pending$/m);
  });

  it('exits 3 when the database cannot be read, after showing the receiver', async () => {
    const result = await receiver.cli(['status', '--admin-url', adminUrl], { DATABASE_URL: 'sqlite:/nonexistent/receiver.db' });
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^receiver +ready/m);
    expect(result.stdout).toMatch(/^backlog +unknown: no database at \/nonexistent\/receiver\.db/m);
  });
});

/** A port nothing listens on (fetch refuses low "bad" ports such as 1 before connecting). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
