import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { approvalNotification, nextPgCno } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { rawSql } from '../helpers/raw-sql';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { mailReceiver, openAlertService, webhookReceiver, type AlertService, type MailReceiver, type WebhookReceiver } from './alert-harness';

const MALL = 'T0001234';
const PUBLIC_URL = 'https://ops.shop.example';
let orderSeq = 0;
const orderNo = () => `ORD-ALERT-${process.pid}-${++orderSeq}`;
// What the gateway's approval carries about the person who paid: none of it may reach a chat channel.
const PERSON = { cardNo: '5361-4812-3456-7890', customerName: '홍길동', customerContactNo: '01098765432' };
const PROBES = ['5361', '4812', '7890', '홍길동', '01098765432', 'p4ssw0rd', 'secretXXXX', 'queue-token-123'];


function expectNoPersonalData(text: string): void {
  for (const probe of PROBES) expect(text).not.toContain(probe);
}

function alertStories(database: () => Promise<{ url: string | undefined; drop(): Promise<void> }>): void {
  let db: { url: string | undefined; drop(): Promise<void> };
  let webhook: WebhookReceiver;
  let mail: MailReceiver;
  let service: AlertService | null;
  beforeEach(async () => {
    db = await database();
    webhook = await webhookReceiver();
    mail = await mailReceiver();
    service = null;
  });
  afterEach(async () => {
    await service?.close();
    await webhook.close();
    await mail.close();
    await db.drop();
  });

  const open = async (env: Record<string, string> = {}, alerts: Parameters<typeof openAlertService>[0]['alerts'] = {}) => {
    service = await openAlertService({
      ...(db.url ? { databaseUrl: db.url } : {}),
      env: { ALERT_WEBHOOK_URL: webhook.url, ALERT_SMTP_URL: mail.url, ALERT_EMAIL_TO: 'ops@shop.example,cs@shop.example', ADMIN_PUBLIC_URL: PUBLIC_URL, ...env },
      alerts,
    });
    return service;
  };
  /** An order expected at 30,000 won and approved at 3,000: an amount_mismatch opens. */
  const mismatch = async (s: AlertService, shopOrderNo = orderNo(), extra: Record<string, string> = {}, simulated = false) => {
    await s.stores.ledger.putExpectation({ mallId: MALL, shopOrderNo }, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null }, new Date().toISOString());
    const body = { ...approvalNotification({ mallId: MALL, shopOrderNo, pgCno: nextPgCno(), amount: '3000', ...PERSON }), ...extra };
    await (simulated ? s.notifySimulated(body) : s.notify(body)).expect(200);
    return shopOrderNo;
  };
  /** Two approvals of one order with two pgCnos: a duplicate_payment opens. */
  const doublePaid = async (s: AlertService, shopOrderNo = orderNo(), simulated = false) => {
    for (const _ of [1, 2]) {
      const body = approvalNotification({ mallId: MALL, shopOrderNo, pgCno: nextPgCno(), amount: '12000' });
      await (simulated ? s.notifySimulated(body) : s.notify(body)).expect(200);
    }
    return shopOrderNo;
  };
  const FORGED = { simulator: 'noti-receiver' };
  const counter = async (s: AlertService, channel: string, outcome: string) =>
    (await s.metrics.registry.getSingleMetric('noti_receiver_alert_messages_total')!.get()).values.find((v) => v.labels.channel === channel && v.labels.outcome === outcome)?.value ?? 0;

  test('a new discrepancy reaches the webhook and both mailboxes as one message in Korean, with the order\'s console link, the amounts as won and no personal data', async () => {
    const s = await open();
    const shopOrderNo = await mismatch(s);
    const text = await eventually(() => webhook.texts[0], 10_000, 'the webhook message');
    const email = await eventually(() => mail.mails[0], 10_000, 'the e-mail');
    expect(text).toContain('새 불일치: 금액 불일치 (amount_mismatch)');
    expect(text).toContain(`주문: ${MALL} / ${shopOrderNo}`);
    expect(text).toContain('기대 금액 30,000원 · 결제 통지 금액 3,000원');
    expect(text).toContain(`${PUBLIC_URL}/console/orders/${MALL}/${shopOrderNo}`);
    // The id is named, and the message says what to do: the playbook of its kind.
    expect(text).toMatch(/\n불일치 번호: dsc_[0-9a-f]+\n/);
    expect(text).toContain(`할 일: ${PUBLIC_URL}/console/playbooks#amount_mismatch`);
    expect(text).toMatch(/\d{4}\. \d{2}\. \d{2}\. \d{2}:\d{2}:\d{2} KST/);
    expectNoPersonalData(text);
    expect(email).toMatchObject({ to: ['ops@shop.example', 'cs@shop.example'], subject: '[결제 통지 수신기] 새 불일치: 금액 불일치 (amount_mismatch)' });
    expect(email.text).toBe(text);
    expectNoPersonalData(email.subject + email.text);
    await eventually(async () => (await counter(s, 'webhook', 'sent')) === 1 && (await counter(s, 'email', 'sent')) === 1, 5_000, 'the sent counters');
    expect(webhook.texts).toHaveLength(1);
    expect(mail.mails).toHaveLength(1);
  });

  test('with ALERT_LANGUAGE=en the message is in English, and without ADMIN_PUBLIC_URL it names the mall and order with no link', async () => {
    const s = await open({ ALERT_LANGUAGE: 'en', ADMIN_PUBLIC_URL: '' });
    const shopOrderNo = await mismatch(s);
    const text = await eventually(() => webhook.texts[0], 10_000, 'the webhook message');
    expect(text).toContain('New discrepancy: Amount mismatch (amount_mismatch)');
    expect(text).toContain(`Order: ${MALL} / ${shopOrderNo}`);
    expect(text).toContain('expected ₩30,000 · paid as notified ₩3,000');
    expect(text).toContain("What to do: the console's Discrepancies → What to do, kind by kind");
    expect(text).toMatch(/At: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} KST/);
    expect(text).not.toContain('http');
    expectNoPersonalData(text);
    expect((await eventually(() => mail.mails[0], 10_000, 'the e-mail')).subject).toBe('[payment-noti-receiver] New discrepancy: Amount mismatch (amount_mismatch)');
  });

  test("an order the simulator made up (every notification signed by it) opens its discrepancy without waking anyone; a real one after it does", async () => {
    const s = await open();
    const made = await mismatch(s, orderNo(), {}, true);
    const real = await mismatch(s);
    const text = await eventually(() => webhook.texts[0], 10_000, 'the webhook message');
    expect(text).toContain(real);
    expect(text).not.toContain(made);
    expect((await s.stores.ledger.getOrder({ mallId: MALL, shopOrderNo: made }))).toMatchObject({ status: 'discrepancy', simulated: true });
  });

  test('a body that names the simulator silences nothing: a tampered 3,000 won payment of a 30,000 won order is told', async () => {
    const s = await open();
    const forged = await mismatch(s, orderNo(), FORGED);
    const text = await eventually(() => webhook.texts[0], 10_000, 'the webhook message');
    expect(text).toContain(forged);
    expect(text).toContain('amount_mismatch');
    expect(await s.stores.ledger.getOrder({ mallId: MALL, shopOrderNo: forged })).not.toHaveProperty('simulated');
  });

  test("one more payment naming the simulator in its body does not silence a real order's double payment", async () => {
    const s = await open();
    const shopOrderNo = orderNo();
    await s.notify(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: nextPgCno(), amount: '12000' })).expect(200);
    // Signed with a key this receiver does not hold, and with the field: neither is the simulator's mark.
    const body = { ...approvalNotification({ mallId: MALL, shopOrderNo, pgCno: nextPgCno(), amount: '12000' }), ...FORGED };
    await s.notify(body).set('X-Noti-Receiver-Simulator', 'ab'.repeat(32)).expect(200);
    const text = await eventually(() => webhook.texts[0], 10_000, 'the webhook message');
    expect(text).toContain(shopOrderNo);
    expect(text).toContain('duplicate_payment');
  });

  test("a real notification on a simulated order makes it real, and the discrepancy held back while it looked simulated is told then", async () => {
    const s = await open({}, { windowMs: 0 });
    const made = await doublePaid(s, orderNo(), true);
    const real = await mismatch(s);
    // The real order's alert comes after the simulated order's discrepancy in the store: the follower read past it.
    const first = await eventually(() => webhook.texts[0], 10_000, 'the real order\'s message');
    expect(first).toContain(real);
    expect(first).not.toContain(made);
    expect(await s.stores.ledger.getOrder({ mallId: MALL, shopOrderNo: made })).toMatchObject({ simulated: true });
    // A declined approval moves no money and changes no figure: only that it came unsigned.
    await s.notify(approvalNotification({ mallId: MALL, shopOrderNo: made, pgCno: nextPgCno(), amount: '12000', resCd: '3001', resMsg: 'declined' })).expect(200);
    const told = await eventually(() => webhook.texts.find((text) => text.includes(made)), 10_000, 'the held-back discrepancy\'s message');
    expect(told).toContain('duplicate_payment');
    expect(await s.stores.ledger.getOrder({ mallId: MALL, shopOrderNo: made })).not.toHaveProperty('simulated');
    // Told once: more notifications of the order tell nothing again.
    await s.notify(approvalNotification({ mallId: MALL, shopOrderNo: made, pgCno: nextPgCno(), amount: '12000', resCd: '3001', resMsg: 'declined' })).expect(200);
    await mismatch(s);
    await eventually(() => webhook.texts.length === 3, 10_000, 'the next real message');
    expect(webhook.texts.filter((text) => text.includes(made))).toHaveLength(1);
  });

  test('discrepancies opening within the window after a message go together as one digest when it ends', async () => {
    let clock = Date.now();
    const s = await open({}, { now: () => clock, windowMs: 60_000 });
    const first = await mismatch(s);
    await eventually(() => webhook.texts.length === 1 && mail.mails.length === 1, 10_000, 'the first message');
    expect(webhook.texts[0]).toContain(first);
    const [second, third] = [await mismatch(s), await mismatch(s)];
    // Both stored and waiting while the window lasts: nothing more is sent.
    await eventually(async () => (await s.stores.store.alertChannels()).every((c) => c.pending === 2), 10_000, 'two alerts waiting');
    expect(webhook.texts).toHaveLength(1);
    clock += 60_000;
    const digest = await eventually(() => webhook.texts[1], 10_000, 'the digest');
    expect(digest.split('\n')[0]).toBe('새 문제 2건');
    expect(digest).toContain(second);
    expect(digest).toContain(third);
    expect((await eventually(() => mail.mails[1], 10_000, 'the e-mailed digest')).subject).toBe('[결제 통지 수신기] 새 문제 2건');
    expectNoPersonalData(digest);
    await eventually(async () => (await s.stores.store.alertChannels()).every((c) => c.pending === 0), 5_000, 'nothing waiting');
    expect(webhook.texts).toHaveLength(2);
    expect(mail.mails).toHaveLength(2);
  });

  test('a webhook answering 500 and an SMTP server answering 451 get the message again after a backoff, and it is delivered once', async () => {
    webhook.mode = 'fail';
    mail.refuse = 2;
    const s = await open();
    const shopOrderNo = await mismatch(s);
    await eventually(() => webhook.requests >= 2, 10_000, 'the webhook tried twice');
    expect(webhook.texts).toHaveLength(0);
    webhook.mode = 'ok';
    const text = await eventually(() => webhook.texts[0], 10_000, 'the webhook message after the failures');
    expect(text).toContain(shopOrderNo);
    const email = await eventually(() => mail.mails[0], 10_000, 'the e-mail after two refusals');
    expect(email.text).toContain(shopOrderNo);
    expect(mail.refuse).toBe(0);
    expect(await counter(s, 'webhook', 'failed')).toBeGreaterThanOrEqual(2);
    expect(await counter(s, 'email', 'failed')).toBe(2);
    await eventually(async () => (await counter(s, 'webhook', 'sent')) === 1 && (await counter(s, 'email', 'sent')) === 1, 5_000, 'the sent counters');
    expect(webhook.texts).toHaveLength(1);
    expect(mail.mails).toHaveLength(1);
  });

  test('a webhook that never answers does not delay acks: notifications are acked while its message hangs, and e-mail still goes', async () => {
    webhook.mode = 'hang';
    const s = await open({}, { sendTimeoutMs: 120_000 });
    const shopOrderNo = await mismatch(s);
    await eventually(() => webhook.hanging === 1, 10_000, 'the webhook holding the message');
    for (let i = 0; i < 20; i++) {
      const ack = await s.notify(approvalNotification({ mallId: MALL, shopOrderNo: orderNo(), amount: '1000' })).expect(200);
      expect(ack.body).toMatchObject({ resCd: '0000' });
    }
    expect((await eventually(() => mail.mails[0], 10_000, 'the e-mail')).text).toContain(shopOrderNo);
    // Still held: the acks above were answered while the alert was stuck.
    expect(webhook.hanging).toBe(1);
    expect(webhook.requests).toBe(1);
  });

  test('an SMTP server that accepts and never greets holds one connection at a time, closed at the time-out, while acks and the webhook go on', async () => {
    const sockets = new Set<Socket>();
    let connections = 0;
    let mostOpen = 0;
    const silent = createServer((socket) => {
      connections += 1;
      sockets.add(socket);
      mostOpen = Math.max(mostOpen, sockets.size);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const s = await open({ ALERT_SMTP_URL: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}` }, { sendTimeoutMs: 200 });
      const shopOrderNo = await mismatch(s);
      expect(await eventually(() => webhook.texts[0], 10_000, 'the webhook message')).toContain(shopOrderNo);
      await eventually(async () => (await counter(s, 'email', 'failed')) >= 3, 10_000, 'three timed-out sends');
      for (let i = 0; i < 5; i++) await s.notify(approvalNotification({ mallId: MALL, shopOrderNo: orderNo(), amount: '1000' })).expect(200);
      // Each timed-out send closed its connection: never more than the one in flight.
      expect(connections).toBeGreaterThanOrEqual(3);
      expect(mostOpen).toBe(1);
      expect((await s.stores.store.alertChannels()).find((c) => c.channel === 'email')).toMatchObject({ pending: 1, lastError: 'SMTP server not done: no answer in time' });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  test('an order that becomes ledger_error and an event the relay gives up on are told, without the error texts', async () => {
    let clock = Date.now();
    const s = await open({}, { now: () => clock });
    const broken = orderNo();
    // An input stored cut short cannot be read as a fact: the order goes ledger_error.
    await rawSql(s.databaseUrl, 'INSERT INTO ledger_inputs (mall_id, shop_order_no, fact_json, recorded_at) VALUES (?, ?, ?, ?)', MALL, broken, '{"kind":"expectation","amo', new Date().toISOString());
    await s.notify(approvalNotification({ mallId: MALL, shopOrderNo: broken, amount: '1000', ...PERSON })).expect(200);
    const ledgerError = await eventually(() => webhook.texts.find((t) => t.includes(broken)), 10_000, 'the ledger_error message');
    expect(ledgerError).toContain(`장부 오류 (ledger_error): ${MALL} / ${broken}`);
    expect(ledgerError).toContain(`${PUBLIC_URL}/console/orders/${MALL}/${broken}`);
    expect(ledgerError).not.toContain('amo');
    expectNoPersonalData(ledgerError);

    const lost = orderNo();
    await s.notify(approvalNotification({ mallId: MALL, shopOrderNo: lost, amount: '1000', ...PERSON })).expect(200);
    const pending = (await s.stores.store.nextPending(100)).find((r) => r.eventJson.includes(lost))!;
    // What the relay does when it gives up; its error quotes the queue's URL with its credentials.
    await s.stores.store.markDead(pending.seq, 'POST https://relay:queue-token-123@queue.shop.example/in failed: 400', { at: new Date().toISOString(), publisher: 'http' });
    await eventually(async () => (await s.stores.store.alertChannels()).every((c) => c.pending === 1), 10_000, 'the dead event stored as an alert');
    clock += 60_000;
    const dead = await eventually(() => webhook.texts.find((t) => t.includes(pending.eventId)), 10_000, 'the dead event message');
    expect(dead).toContain(`전달 포기한 이벤트 (dead): payment.approved ${pending.eventId}`);
    expect(dead).toContain(`주문: ${MALL} / ${lost}`);
    expect(dead).toContain(`${PUBLIC_URL}/console/events/${pending.eventId}`);
    expectNoPersonalData(dead);
  });

  test('an event of the simulator\'s that the relay gives up on is told, marked simulated in its title and saying no real money moved', async () => {
    let clock = Date.now();
    const s = await open({}, { now: () => clock });
    const made = orderNo();
    await s.notifySimulated(approvalNotification({ mallId: MALL, shopOrderNo: made, amount: '1000' })).expect(200);
    const pending = (await s.stores.store.nextPending(100)).find((r) => r.eventJson.includes(made))!;
    // No alert was sent in the minute before: this one goes at once, whenever the follower stores it.
    clock += 60_000;
    await s.stores.store.markDead(pending.seq, 'POST https://queue.shop.example/in failed: 400', { at: new Date().toISOString(), publisher: 'http' });
    const dead = await eventually(() => webhook.texts.find((t) => t.includes(pending.eventId)), 10_000, 'the dead event message');
    expect(dead).toContain(`[시뮬레이션] 전달 포기한 이벤트 (dead): payment.approved ${pending.eventId}`);
    expect(dead).toContain('시뮬레이터(npm run simulate)가 보낸 알림입니다. 실제 돈은 움직이지 않았습니다.');
  });

  test('an alert stored while the receivers are down is sent after a restart, once', async () => {
    webhook.mode = 'fail';
    mail.refuse = 1_000;
    let clock = Date.now();
    const s = await open({}, { now: () => clock, backoff: { baseMs: 60_000, maxMs: 60_000 } });
    const shopOrderNo = await mismatch(s);
    await eventually(() => webhook.requests >= 1 && mail.refuse < 1_000, 10_000, 'a failed send on each channel');
    webhook.mode = 'ok';
    mail.refuse = 0;
    // Stopped during the backoff: the alert is only in the database; the new process keeps the backoff.
    await s.restart();
    clock += 60_000;
    expect((await eventually(() => webhook.texts[0], 10_000, 'the webhook message after the restart'))).toContain(shopOrderNo);
    expect((await eventually(() => mail.mails[0], 10_000, 'the e-mail after the restart')).text).toContain(shopOrderNo);
    await eventually(async () => (await s.stores.store.alertChannels()).every((c) => c.pending === 0), 5_000, 'nothing waiting');
    await s.restart();
    clock += 60_000;
    await mismatch(s);
    await eventually(() => webhook.texts.length === 2, 10_000, 'the next alert');
    expect(webhook.texts[1]).not.toContain(shopOrderNo);
  });
}

describe('alerts to people (SQLite)', () => {
  alertStories(async () => ({ url: undefined, drop: async () => undefined }));
});

describePostgres('alerts to people (PostgreSQL)', () => {
  alertStories(async () => {
    const schema: TestSchema = await createTestSchema();
    return { url: schema.url, drop: () => schema.drop() };
  });
});
