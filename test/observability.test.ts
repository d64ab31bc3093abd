import { Writable } from 'node:stream';
import request from 'supertest';
import { createAdminApp } from '../src/admin/admin-app';
import { ConfigError, loadConfig } from '../src/config/env';
import { createLogger } from '../src/observability/logger';
import { createMetrics } from '../src/observability/metrics';
import { registerBacklogGauges } from '../src/store/backlog-gauges';
import { approvalNotification } from '../src/simulator/notification-builders';
import { startTestReceiver } from './helpers/test-receiver';

describe('logs', () => {
  it('mask card, account, phone and name fields wherever they appear', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      stream: new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) }),
    });
    logger.info('x', {
      cardNo: '5361481234561234', accountNo: '94770201234567', customerContactNo: '01012345678',
      customerName: '홍길동', nested: { refundDepositName: '이영희', mobileNo: '01098765432' }, pgCno: '12345678901234567890',
      bankName: '국민은행',
    });
    const line = JSON.parse(lines[0]!) as Record<string, any>;
    expect(line.cardNo).toBe('************1234');
    expect(line.accountNo).toBe('**********4567');
    expect(line.customerContactNo).toBe('*******5678');
    expect(line.customerName).toBe('홍**');
    expect(line.nested).toEqual({ refundDepositName: '이**', mobileNo: '*******5432' });
    expect(line.pgCno).toBe('12345678901234567890');
    expect(line.bankName).toBe('국민은행');
    expect(lines[0]).not.toMatch(/5361481234561234|01012345678|홍길동/);
  });

  it('never carry a notification body, even when it is rejected', async () => {
    const receiver = await startTestReceiver({ MALL_IDS: 'T0000001' });
    await receiver.postJson(approvalNotification({ customerName: '홍길동', cardNo: '5361481234561234' })).expect(400);
    const text = JSON.stringify(receiver.logs());
    expect(text).not.toMatch(/홍길동|5361481234561234/);
    await receiver.close();
  });
});

describe('admin listener', () => {
  it('serves /healthz, /readyz with store, publisher and backlog, and /metrics; the notification app does not', async () => {
    const receiver = await startTestReceiver({}, { relay: false });
    await receiver.postJson(approvalNotification()).expect(200);
    const metrics = createMetrics();
    registerBacklogGauges(metrics, receiver.store);
    const admin = createAdminApp({
      store: receiver.store,
      publisher: { kind: 'file', publish: async () => undefined, status: () => ({ connected: false, detail: 'down for the test' }), close: async () => undefined },
      relay: null,
      metrics,
      isShuttingDown: () => false,
    });
    await request(admin).get('/healthz').expect(200, { status: 'ok' });
    const ready = await request(admin).get('/readyz').expect(200);
    expect(ready.body).toMatchObject({
      status: 'ready',
      store: { ok: true, kind: 'sqlite' },
      publisher: { ok: false, connected: false, detail: 'down for the test' },
      backlog: { pending: 1, dead: 0 },
    });
    expect(ready.body.backlog.oldestPendingAgeSeconds).toBeGreaterThanOrEqual(0);
    const text = (await request(admin).get('/metrics').expect(200)).text;
    expect(text).toMatch(/noti_receiver_outbox_pending 1/);
    await request(receiver.app).get('/readyz').expect(404);
    await request(receiver.app).get('/metrics').expect(404);

    await receiver.store.close();
    const down = await request(admin).get('/readyz').expect(503);
    expect(down.body.store.ok).toBe(false);
    await receiver.close();
  });
});

describe('configuration', () => {
  it('has embedded defaults for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8080, HOST: '0.0.0.0', NOTIFY_PATH: '/notifications', ADMIN_PORT: 9464, ADMIN_HOST: '127.0.0.1',
      GATEWAY_ENV: 'development', MALL_IDS: [], DATABASE_URL: 'sqlite:./data/receiver.db',
      QUEUE_URL: 'file:./data/events.ndjson', QUEUE_NAME: 'payment-notifications', LOG_LEVEL: 'info',
    });
  });

  it("the mall's default currency is KRW unless set", () => {
    expect(loadConfig({} as NodeJS.ProcessEnv).LEDGER_DEFAULT_CURRENCY).toBe('KRW');
    expect(loadConfig({ LEDGER_DEFAULT_CURRENCY: 'USD' } as NodeJS.ProcessEnv).LEDGER_DEFAULT_CURRENCY).toBe('USD');
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ GATEWAY_ENV: 'staging' }, /GATEWAY_ENV.*production or development/],
    [{ EXTRA_ALLOWED_IPS: '10.0.0.1,not-an-ip' }, /EXTRA_ALLOWED_IPS.*not-an-ip/],
    [{ TRUST_PROXY: '10.0.0.0/99' }, /TRUST_PROXY/],
    [{ QUEUE_URL: 'kafka://broker' }, /QUEUE_URL/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    // One name serves as exchange, stream and subject prefix: a dot would split NATS subjects.
    [{ QUEUE_NAME: 'merchant.payments' }, /QUEUE_NAME.*letters, digits/],
    [{ LEDGER_DEFAULT_CURRENCY: 'won' }, /LEDGER_DEFAULT_CURRENCY.*ISO 4217/],
  ])('a bad setting %j names the variable', (env, pattern) => {
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(ConfigError);
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(pattern);
  });
});
