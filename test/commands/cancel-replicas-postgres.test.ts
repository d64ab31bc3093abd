import { nextPgCno } from '../../src/simulator/notification-builders';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { partialCancel, startCancelService, walletPayment, type CancelService } from './cancel-service';
import { PATHS, gate, startFakeGateway, type FakeGateway } from './fake-gateway';
import { HOST, ORIGIN } from '../console/console-harness';

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

  test('two console confirmations of 6,000 won on a 10,000 won payment, pressed at once on each replica: one is sent, the other refused', async () => {
    const { pgCno, path } = await walletPayment(a, 10_000);
    const held = gate();
    gateway.script(PATHS.revise, { until: held.opened, then: { answer: { resCd: '0000', resMsg: 'SUCCESS', cancelPgCno: nextPgCno() } } });
    const pressed = await Promise.all([a, b].map(async (replica) => {
      const { agent, csrf } = await replica.signIn();
      const page = (await agent.get(`${path}/cancel?pgCno=${pgCno}&type=partial&amount=6000`).set('Host', HOST).expect(200)).text;
      const shopTransactionId = /name="shopTransactionId" value="([^"]*)"/.exec(page)![1]!;
      return () => agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form')
        .send({ _csrf: csrf, pgCno, type: 'partial', amount: '6000', shopTransactionId }).then((r) => r);
    }));
    const sent = pressed.map((press) => press());
    const refused = await Promise.race(sent);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('₩4,000 left of this payment');
    held.open();
    expect((await Promise.all(sent)).map((r) => r.status).sort()).toEqual([303, 409]);
    expect(gateway.calls(PATHS.revise)).toHaveLength(1);
  });
});
