import { nextPgCno } from '../../src/simulator/notification-builders';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { partialCancel, startCancelService, walletPayment, type CancelService } from './cancel-service';
import { PATHS, gate, startFakeGateway, type FakeGateway } from './fake-gateway';

describePostgres('cancels sent through two replicas on one PostgreSQL database', () => {
  let schema: TestSchema;
  let gateway: FakeGateway;
  let a: CancelService;
  let b: CancelService;

  beforeEach(async () => {
    schema = await createTestSchema();
    gateway = await startFakeGateway();
    a = await startCancelService(gateway, { databaseUrl: schema.url });
    b = await startCancelService(gateway, { databaseUrl: schema.url });
  });
  afterEach(async () => {
    await a?.close();
    await b?.close();
    await gateway?.close();
    await schema?.drop();
  });

  test('four cancels of 3,000 won at once, two on each replica, on a 10,000 won payment: three are sent, one is refused', async () => {
    const { pgCno } = await walletPayment(a, 10_000);
    const held = gate();
    for (let i = 0; i < 4; i++) gateway.script(PATHS.revise, { until: held.opened, then: { answer: { resCd: '0000', resMsg: 'SUCCESS', cancelPgCno: nextPgCno() } } });
    const sent = [a, b, a, b].map((replica, i) => replica.api.post('/v1/wallet-b/cancellations', partialCancel(pgCno, 3_000, `replica-${i}`)).then((r) => r));
    // The gateway holds every call it gets: the refused one is answered while the others wait there.
    const refused = await Promise.race(sent);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ reason: 'exceeds_remaining', left: 1_000 });
    await gateway.waitForCalls(PATHS.revise, 3);
    held.open();
    const statuses = (await Promise.all(sent)).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 409]);
    expect(gateway.calls(PATHS.revise)).toHaveLength(3);
  });
});
