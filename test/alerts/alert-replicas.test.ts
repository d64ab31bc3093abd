import { approvalNotification, nextPgCno } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { mailReceiver, openAlertService, webhookReceiver, type AlertService, type MailReceiver, type WebhookReceiver } from './alert-harness';

const MALL = 'T0001234';
let orderSeq = 0;
const orderNo = () => `ORD-REPLICA-${process.pid}-${++orderSeq}`;

describePostgres('alerts to people with two PostgreSQL replicas', () => {
  let schema: TestSchema;
  let webhook: WebhookReceiver;
  let mail: MailReceiver;
  let replicas: AlertService[];
  beforeEach(async () => {
    schema = await createTestSchema();
    webhook = await webhookReceiver();
    mail = await mailReceiver();
    replicas = [];
  });
  afterEach(async () => {
    for (const replica of replicas) await replica.close();
    await webhook.close();
    await mail.close();
    await schema.drop();
  });

  const open = async (alerts: Parameters<typeof openAlertService>[0]['alerts']) => {
    const replica = await openAlertService({ databaseUrl: schema.url, env: { ALERT_WEBHOOK_URL: webhook.url, ALERT_SMTP_URL: mail.url, ALERT_EMAIL_TO: 'ops@shop.example' }, alerts });
    replicas.push(replica);
    return replica;
  };
  const mismatch = async (s: AlertService) => {
    const shopOrderNo = orderNo();
    await s.stores.ledger.putExpectation({ mallId: MALL, shopOrderNo }, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null }, new Date().toISOString());
    await s.notify(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: nextPgCno(), amount: '3000' })).expect(200);
    return shopOrderNo;
  };
  const nothingWaiting = (s: AlertService) => eventually(async () => (await s.stores.store.alertChannels()).every((c) => c.pending === 0), 10_000, 'nothing waiting');

  test('two replicas following one database send each alert once', async () => {
    let clock = Date.now();
    const [a, b] = [await open({ now: () => clock }), await open({ now: () => clock })];
    const first = await mismatch(a!);
    await eventually(() => webhook.texts.length === 1 && mail.mails.length === 1, 10_000, 'the first alert');
    await nothingWaiting(b!);
    clock += 60_000;
    const second = await mismatch(b!);
    await eventually(() => webhook.texts.length === 2 && mail.mails.length === 2, 10_000, 'the second alert');
    await nothingWaiting(a!);
    expect(webhook.texts.map((t) => [t.includes(first), t.includes(second)])).toEqual([[true, false], [false, true]]);
    expect(mail.mails.map((m) => [m.text.includes(first), m.text.includes(second)])).toEqual([[true, false], [false, true]]);
  });

  test('a replica whose send hangs past its lease is taken over: another replica sends the alert', async () => {
    webhook.mode = 'hang';
    const stuck = await open({ sendTimeoutMs: 600_000 });
    const shopOrderNo = await mismatch(stuck);
    await eventually(() => webhook.hanging === 1, 10_000, 'the first replica holding the message');
    webhook.mode = 'ok';
    // The other replica's clock is past the lease (the send's time-out and its margin).
    await open({ now: () => Date.now() + 700_000, sendTimeoutMs: 600_000 });
    expect(await eventually(() => webhook.texts[0], 10_000, 'the message sent by the other replica')).toContain(shopOrderNo);
    expect(webhook.hanging).toBe(1);
  });
});
