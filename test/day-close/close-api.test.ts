import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createApiApp } from '../../src/api/api-app';
import { commandDeps } from '../../src/api/start-internal-api';
import { loadConfig } from '../../src/config/env';
import { ledgerSettingsOf } from '../../src/config/ledger-env';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { kstDay } from '../../src/ledger/summary/kst-day';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { notify } from '../daily-summary/summary-kit';

const API_TOKEN = 'test-api-token-0123456789abcdef';
const MALL = 'T0001234';

describe('POST /v1/summary/days/<day>/close and /reopen', () => {
  let dir: string;
  let stores: Stores;
  let post: (path: string, body: unknown) => request.Test;
  let get: (path: string) => request.Test;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-close-api-'));
    const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`, API_TOKEN, LEDGER_DEFAULT_CURRENCY: 'KRW' });
    stores = await openStores(config.DATABASE_URL, { ledger: ledgerSettingsOf(config) });
    const logger = createLogger({ level: 'error', stream: new Writable({ write: (_c, _e, done) => done() }) });
    const deps = commandDeps({ config, commands: stores.commands, ledger: stores.ledger, storeKind: stores.kind, logger, metrics: createMetrics() });
    const app = () => request(createApiApp({ commands: deps, apiToken: API_TOKEN, ledger: stores.ledger, defaultCurrency: 'KRW', mallIds: [] }));
    post = (path, body) => app().post(path).set('Authorization', `Bearer ${API_TOKEN}`).send(body as object);
    get = (path) => app().get(path).set('Authorization', `Bearer ${API_TOKEN}`);
    await stores.store.record(notify.paid({ mallId: MALL, shopOrderNo: 'ORD-API-1' }, 'PG-API-1', 12000, 10));
    await stores.ledger.caughtUp();
  });
  afterEach(async () => {
    await stores.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('closes a day (201, the kept figures), again is 200 with the first close; a later payment is an adjustment on both days in minor units; reopen answers the live day', async () => {
    const closed = await post('/v1/summary/days/2026-11-22/close', { by: 'kim@shop.example', mallId: MALL });
    expect(closed.status).toBe(201);
    expect(closed.body).toMatchObject({ day: '2026-11-22', mallId: MALL, closedBy: 'kim@shop.example (internal API)', days: [{ date: '2026-11-22', net: 12000 }] });
    const again = await post('/v1/summary/days/2026-11-22/close', { by: 'lee@shop.example', mallId: MALL });
    expect([again.status, again.body.closedBy]).toEqual([200, 'kim@shop.example (internal API)']);

    await stores.store.record(notify.paid({ mallId: MALL, shopOrderNo: 'ORD-API-2' }, 'PG-API-2', 500, 20));
    await stores.ledger.caughtUp();
    const today = kstDay(new Date().toISOString());
    const days = (await get(`/v1/summary/daily?from=2026-11-22&to=${today}&mallId=${MALL}`)).body.days as Array<Record<string, unknown>>;
    expect(days.find((d) => d.date === '2026-11-22')).toMatchObject({ net: 12000, closed: { by: 'kim@shop.example (internal API)' }, adjustedLater: [{ on: today, net: 500 }] });
    expect(days.find((d) => d.date === today)).toMatchObject({ adjustments: [{ adjusts: '2026-11-22', payments: { count: 1, amount: 500 }, net: 500 }], netWithAdjustments: 500 });

    const reopened = await post('/v1/summary/days/2026-11-22/reopen', { by: 'admin-lee', mallId: MALL });
    expect([reopened.status, reopened.body]).toEqual([200, { day: '2026-11-22', mallId: MALL, reopened: true }]);
    expect((await post('/v1/summary/days/2026-11-22/reopen', { by: 'admin-lee', mallId: MALL })).status).toBe(404);
    const audit = await stores.store.listAudit(10);
    expect(audit.map((a) => [a.action, a.subject, a.actor])).toEqual(expect.arrayContaining([
      ['closed day', `2026-11-22 ${MALL}`, 'kim@shop.example (internal API)'], ['reopened day', `2026-11-22 ${MALL}`, 'admin-lee (internal API)'],
    ]));
  });

  test.each([
    ['today', () => kstDay(new Date().toISOString()), /not over in Korea yet/],
    ['a day that does not exist', () => '2026-02-29', /2026-02 has days 01 to 28/],
    ['far back', () => '2020-01-01', /more than 366 days ago/],
  ])('%s is refused with 400 and the reason', async (_name, day, reason) => {
    const refused = await post(`/v1/summary/days/${day()}/close`, { by: 'kim' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(reason);
  });

  test('a close with no `by` is refused', async () => {
    expect((await post('/v1/summary/days/2026-11-22/close', {})).status).toBe(400);
  });
});
