import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createAdminApp } from '../../src/admin/admin-app';
import { loadConfig } from '../../src/config/env';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { openFilePublisher } from '../../src/publishers/file-publisher';
import type { Publisher } from '../../src/publishers/publisher';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { ADMIN_TOKEN, HOST, ORIGIN, consoleSessions } from './console-harness';

describe('console Commands page', () => {
  let dir: string;
  let stores: Stores;
  let publisher: Publisher;
  let agent: request.Agent;
  const id = 'SHOPTX-<b>20261122</b>';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-console-commands-'));
    stores = await openStores(`sqlite:${join(dir, 'receiver.db')}`);
    publisher = await openFilePublisher(join(dir, 'events.ndjson'));
    const at = new Date().toISOString();
    const request_ = { mallId: 'T0001234', pgCno: 'PG-CANCEL-1', shopTransactionId: id, regId: 'ops', memo: '고객 요청', buyerPhoneNo: '01099998888' };
    await stores.commands.createCommand({
      kind: 'wallet-b.cancel', shopTransactionId: id, mallId: 'T0001234', bodyHash: 'h', request: request_, state: 'pending', at, owner: 'test', leaseUntil: Date.now() + 60_000,
    });
    const n = await stores.commands.beginAttempt({ shopTransactionId: id, owner: 'test', operation: 'wallet-b.cancel', request: request_, state: 'pending', at, leaseUntil: Date.now() + 60_000 });
    await stores.commands.finishAttempt({
      shopTransactionId: id, owner: 'test', n: n!, at, httpStatus: null, response: null, answerText: null, error: 'time-out after 30000 ms', state: 'pending', nextAttemptAt: Date.now() + 1000, event: null,
    });
    const admin = createAdminApp({
      store: stores.store, publisher, relay: null, metrics: createMetrics(), isShuttingDown: () => false,
      console: {
        store: stores.store, commands: stores.commands, config: loadConfig({}), logger: createLogger({ level: 'error', silent: true }),
        adminToken: ADMIN_TOKEN, sessions: consoleSessions(stores.store), now: () => new Date(),
      },
    });
    agent = request.agent(admin);
    await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token: ADMIN_TOKEN }).expect(303);
  });
  afterAll(async () => {
    await publisher.close();
    await stores.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('lists commands with their state and shows every attempt, masked and as text', async () => {
    const list = await agent.get('/console/commands?state=pending').set('Host', HOST).expect(200);
    expect(list.text).toContain('SHOPTX-&lt;b&gt;20261122&lt;/b&gt;');
    expect(list.text).toContain('time-out after 30000 ms');

    const page = await agent.get(`/console/commands/${encodeURIComponent(id)}`).set('Host', HOST).expect(200);
    expect(page.text).toMatch(/<td class="num">1<\/td><td class="mono">wallet-b.cancel<\/td>/);
    expect(page.text).toContain('time-out after 30000 ms');
    expect(page.text).not.toContain('<b>20261122</b>');
    expect(page.text).not.toContain('01099998888');
    expect(page.text).toContain('*******8888');
  });

  test('the overview counts failed commands where the internal API is assembled', async () => {
    const overview = await agent.get('/console').set('Host', HOST).expect(200);
    expect(overview.text).toMatch(/<span class="tile-value">0<\/span><span class="tile-label">failed commands<\/span>/);
  });
});
