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
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { openApiDocument } from '../../src/api/openapi';
import { notify } from './summary-kit';

const API_TOKEN = 'test-api-token-0123456789abcdef';

describe('GET /v1/summary/daily', () => {
  let dir: string;
  let stores: Stores;
  let get: (path: string, mallIds?: string[]) => request.Test;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-summary-api-'));
    const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`, API_TOKEN, LEDGER_DEFAULT_CURRENCY: 'KRW' });
    stores = await openStores(config.DATABASE_URL, { ledger: ledgerSettingsOf(config) });
    const logger = createLogger({ level: 'error', stream: new Writable({ write: (_c, _e, done) => done() }) });
    const deps = commandDeps({ config, commands: stores.commands, ledger: stores.ledger, storeKind: stores.kind, logger, metrics: createMetrics() });
    get = (path, mallIds = []) => request(createApiApp({ commands: deps, apiToken: API_TOKEN, ledger: stores.ledger, defaultCurrency: 'KRW', mallIds })).get(path).set('Authorization', `Bearer ${API_TOKEN}`);
    const a = { mallId: 'T0001234', shopOrderNo: 'ORD-API-1' };
    const b = { mallId: 'T0005678', shopOrderNo: 'ORD-API-2' };
    await stores.ledger.putExpectation(b, { amount: 1203, currency: 'USD', method: 'card', expiresAt: null }, '2026-11-21T00:00:00.000Z');
    await stores.store.record(notify.paid(a, 'PG-API-1', 12000, 10));
    await stores.ledger.caughtUp();
    await stores.store.record(notify.cancelled(a, 'PG-API-1', 'CX-API-1', 2000, 1440 + 10));
    await stores.store.record(notify.paid(b, 'PG-API-2', 1203, 10));
    // A 51 as the gateway documents it (no amount) that follows no refund: its amount cannot be known.
    const c = { mallId: 'T0009999', shopOrderNo: 'ORD-API-3' };
    await stores.store.record(notify.paid(c, 'PG-API-3', 7000, 2 * 1440 + 10));
    await stores.store.record(notify.refundFailed(c, 'PG-API-3', null, 2 * 1440 + 20));
    await stores.ledger.caughtUp();
  });
  afterAll(async () => {
    await stores.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('answers every mall by day and currency in minor units, with orders by status at each day\'s end', async () => {
    const answer = await get('/v1/summary/daily?from=2026-11-22&to=2026-11-23').expect(200);
    expect(answer.body.days).toEqual([
      {
        date: '2026-11-22', mallId: 'T0001234', currency: 'KRW',
        payments: { count: 1, amount: 12000, byMethod: { card: { count: 1, amount: 12000 } } },
        cancels: { count: 0, amount: 0 }, deposits: { count: 0, amount: 0 }, depositCancels: { count: 0, amount: 0 }, refundsFailed: { count: 0, amount: 0, unknownCount: 0 },
        net: 12000,
        simulated: {
          payments: { count: 0, amount: 0, byMethod: {} }, cancels: { count: 0, amount: 0 }, deposits: { count: 0, amount: 0 }, depositCancels: { count: 0, amount: 0 },
          refundsFailed: { count: 0, amount: 0, unknownCount: 0 }, net: 0,
        },
        discrepancies: { opened: 0, resolved: 0 }, ordersByStatus: { paid: 1 },
      },
      expect.objectContaining({ date: '2026-11-23', mallId: 'T0001234', currency: 'KRW', cancels: { count: 1, amount: 2000 }, net: -2000, ordersByStatus: { partially_cancelled: 1 } }),
      expect.objectContaining({ date: '2026-11-22', mallId: 'T0005678', currency: 'USD', payments: { count: 1, amount: 1203, byMethod: { card: { count: 1, amount: 1203 } } }, net: 1203 }),
      expect.objectContaining({ date: '2026-11-23', mallId: 'T0005678', currency: 'USD', net: 0, ordersByStatus: { paid: 1 } }),
    ]);
  });

  test('mallId narrows to one mall; a mall outside MALL_IDS is answered as one with no money, and the others are left out', async () => {
    const one = await get('/v1/summary/daily?from=2026-11-22&to=2026-11-22&mallId=T0005678').expect(200);
    expect(one.body.days.map((d: { mallId: string }) => d.mallId)).toEqual(['T0005678']);
    expect((await get('/v1/summary/daily?from=2026-11-22&to=2026-11-22&mallId=T0005678', ['T0001234']).expect(200)).body).toEqual({ days: [] });
    const scoped = await get('/v1/summary/daily?from=2026-11-22&to=2026-11-22', ['T0001234']).expect(200);
    expect(scoped.body.days.map((d: { mallId: string }) => d.mallId)).toEqual(['T0001234']);
  });

  test.each([
    ['from=2026-11-31&to=2026-12-01', 'from: 2026-11-31 is not a day: 2026-11 has days 01 to 30'],
    ['from=2026-11-22', 'to'],
    ['from=2026-11-23&to=2026-11-22', 'to 2026-11-22 is before from 2026-11-23'],
    ['from=2025-01-01&to=2026-11-22', 'more than 366'],
    ['from=2026-13-01&to=2026-13-02', 'from: 2026-13-01 is not a day: there is no month 13'],
    ['from=2026-12-01&to=2026-12-32', 'to: 2026-12-32 is not a day: 2026-12 has days 01 to 31'],
    ['from=2026-02-29&to=2026-03-01', 'from: 2026-02-29 is not a day: 2026-02 has days 01 to 28'],
    ['from=0000-01-01&to=9999-12-31', 'is 3652425 days, more than 366'],
    ['from=2026-1-1&to=2026-01-02', 'is not a day: write it as YYYY-MM-DD'],
  ])('a bad range (%s) is a 400 that says what is wrong', async (query, words) => {
    const answer = await get(`/v1/summary/daily?${query}`).expect(400);
    expect(String(answer.body.error)).toContain(words);
  });

  test('a failed refund whose amount cannot be known is counted in unknownCount and left out of amount, never read as 0', async () => {
    const answer = await get('/v1/summary/daily?from=2026-11-24&to=2026-11-24&mallId=T0009999').expect(200);
    expect(answer.body.days).toEqual([expect.objectContaining({ date: '2026-11-24', refundsFailed: { count: 1, amount: 0, unknownCount: 1 }, net: 7000 })]);
  });

  test('a leap day is a day, and a year of 366 days is answered', async () => {
    await get('/v1/summary/daily?from=2024-02-29&to=2024-02-29').expect(200);
    await get('/v1/summary/daily?from=2024-01-01&to=2024-12-31').expect(200);
  });

  test('is in the OpenAPI document, unknownCount of failed refunds and the simulated orders\' money with it', () => {
    const document = openApiDocument() as { paths: Record<string, { get?: { operationId?: string } }>; components: { schemas: Record<string, { properties: Record<string, { properties?: Record<string, unknown>; required?: string[] }> }> } };
    expect(document.paths['/v1/summary/daily']?.get?.operationId).toBe('dailySummary');
    const failed = document.components.schemas.SummaryDay!.properties.refundsFailed!;
    expect(Object.keys(failed.properties ?? {})).toEqual(['count', 'amount', 'unknownCount']);
    // The simulator's orders, apart: the same money figures, in none of the day's.
    expect(Object.keys(document.components.schemas.SimulatedMoney!.properties)).toEqual(['payments', 'cancels', 'deposits', 'depositCancels', 'refundsFailed', 'net']);
  });
});
