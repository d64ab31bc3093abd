import request from 'supertest';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/env';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { approvalNotification, unionPayForm } from '../../src/simulator/notification-builders';
import { openPostgresStore } from '../../src/store/postgres/postgres-store';
import type { Store } from '../../src/store/store';
import { createTestSchema, describePostgres, postgresAddress, withAddress, type TestSchema } from '../store/pg-test-database';
import { TcpProxy } from '../helpers/tcp-proxy';

describePostgres('the receiver on PostgreSQL during a database outage', () => {
  let schema: TestSchema;
  let proxy: TcpProxy;
  let store: Store;

  beforeEach(async () => {
    schema = await createTestSchema();
    proxy = new TcpProxy(postgresAddress());
    await proxy.start();
    store = await openPostgresStore(withAddress(schema.url, '127.0.0.1', proxy.port), { connectTimeoutMs: 500, statementTimeoutMs: 1000 });
  });
  afterEach(async () => {
    await store.close().catch(() => undefined);
    await proxy.cut();
    await schema.drop();
  });

  it('answers 503/5001 while the database is away, never 0000, and accepts again once it returns', async () => {
    const config = loadConfig({ TRUST_PROXY: '127.0.0.1,::1' });
    const app = createApp({ config, store, logger: createLogger({ level: 'error', silent: true }), metrics: createMetrics() });
    const post = (body: unknown) =>
      request(app).post('/notifications').set('X-Forwarded-For', '61.33.205.151').set('Content-Type', 'application/json').send(JSON.stringify(body));

    const before = approvalNotification();
    await post(before).expect(200, { resCd: '0000', resMsg: 'SUCCESS' });

    await proxy.cut();
    const during = approvalNotification();
    const refused = await post(during).expect(503);
    expect(refused.body).toEqual({ resCd: '5001', resMsg: expect.stringMatching(/storage unavailable/) });
    const form = await request(app)
      .post('/notifications')
      .set('X-Forwarded-For', '61.33.205.151')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .serialize((raw: unknown) => raw as string)
      .send(unionPayForm().body)
      .expect(503);
    expect(form.text).toBe('res_cd=5001\x1fres_msg=FAIL');

    await proxy.start();
    // The gateway's retry of the refused notification now lands, exactly once.
    await post(during).expect(200, { resCd: '0000', resMsg: 'SUCCESS' });
    await post(during).expect(200);
    expect((await store.listEvents({})).map((e) => e.pgCno).sort()).toEqual([before.pgCno, during.pgCno].sort());
  });
});
