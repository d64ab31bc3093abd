import request from 'supertest';
import { createAdminApp } from '../../src/admin/admin-app';
import { loadConfig } from '../../src/config/env';
import type { ConsoleDeps } from '../../src/console/console-deps';
import { kstDay } from '../../src/ledger/summary/kst-day';
import { kstStamp } from '../../src/notifications/kst-date';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import type { RunningSandbox } from '../../src/sandbox/sandbox-app';
import {
  approvalNotification, changeNotification, depositCancelNotification, depositNotification, escrowNotification,
  refundNotification, transferFailedNotification, unionPayForm,
} from '../../src/simulator/notification-builders';
import { newSecret, secretHash } from '../../src/store/operator-credentials';
import { eventually } from '../helpers/eventually';
import { startLedgerReceiver, type LedgerReceiver } from '../sandbox/ledger-receiver';
import { MALL_ID, sandboxForTests, settledNotifications, uniqueId } from '../sandbox/sandbox-fixtures';
import { ADMIN_TOKEN, HOST, ORIGIN, consoleSessions, csrfIn } from './console-harness';
import { doubleParticles, latinWords } from './latin-words';

/**
 * Every console page a Korean operator can open, over a store with one of everything (each event
 * type, a rejection, a conflict, commands, orders with cancels, refunds and a failed refund,
 * discrepancies open and resolved, audit rows of each action, operators, the day and the month,
 * search results, the error pages), read as text: no Latin word but identifiers (latin-words.ts).
 */
describe('every console page in Korean', () => {
  jest.setTimeout(120_000);
  let sandbox: RunningSandbox;
  let receiver: LedgerReceiver;
  let agent: request.Agent;
  const pages: Array<{ name: string; path: string; status?: number }> = [];
  /** Pages answered to a POST (a refused form), read as they came. */
  const answers: Array<{ name: string; text: string }> = [];

  const notify = async (body: Record<string, string>, status = 200) => {
    const answer = await fetch(receiver.notifyUrl, { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });
    expect(answer.status).toBe(status);
  };

  beforeAll(async () => {
    sandbox = await sandboxForTests();
    receiver = await startLedgerReceiver(sandbox.url, { MALL_IDS: MALL_ID });
    const { store, commands, ledger } = receiver.stores;
    const deps: ConsoleDeps = {
      store, commands, ledger, gatewayCommands: receiver.commandDeps, adminToken: ADMIN_TOKEN, now: () => new Date(),
      logger: createLogger({ level: 'error', silent: true }),
      config: loadConfig({ TRUST_PROXY: '127.0.0.1,::1', MALL_IDS: MALL_ID }),
      sessions: consoleSessions(store, ADMIN_TOKEN),
    };
    const admin = createAdminApp({
      store,
      publisher: { kind: 'none', publish: async () => undefined, status: () => ({ connected: false, detail: 'no relay in this test' }), close: async () => undefined },
      relay: null, metrics: createMetrics(), isShuttingDown: () => false, console: deps,
    });
    // A Korean operator with every right, signed in with a session that chose Korean.
    const token = newSecret();
    await store.addOperator({ name: '김민지', role: 'admin', tokenHash: secretHash(token), createdAt: new Date().toISOString(), canCancel: true });
    agent = request.agent(admin);
    expect((await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token })).status).toBe(303);
    let csrf = csrfIn((await agent.get('/console/orders').set('Host', HOST)).text);
    await agent.post('/console/locale').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, locale: 'ko', back: '/console' }).expect(303);
    csrf = csrfIn((await agent.get('/console/orders').set('Host', HOST)).text);
    const post = (path: string, body: Record<string, string>) => agent.post(path).set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, ...body });

    const minutesAgo = (n: number) => kstStamp(new Date(Date.now() - n * 60_000));
    const order = (name: string) => uniqueId(`ORD-${name}`);
    // A wallet-a trade paid on the sandbox's page, then partly cancelled from the console: commands, a cancel request, an audit row.
    const walletOrder = order('WALLET');
    const created = await receiver.api('/v1/wallet-a/trades', {
      mallId: MALL_ID, shopOrderNo: walletOrder, goodsName: 'Socks', tradeType: 'mweb', amountInfo: { totalAmount: 12000, currency: 'KRW' }, notifyUrl: receiver.notifyUrl,
    });
    expect(created).toMatchObject({ status: 200, body: { state: 'succeeded' } });
    const payToken = new URL(String((created.body.response as Record<string, unknown>).paymentPageUrl)).pathname.split('/').pop();
    expect((await fetch(`${sandbox.url}/pay/${payToken}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    await settledNotifications(sandbox, 1);
    const walletPath = `/console/orders/${MALL_ID}/${encodeURIComponent(walletOrder)}`;
    const walletPgCno = (await eventually(() => ledger.getOrder({ mallId: MALL_ID, shopOrderNo: walletOrder }).then((o) => o?.payments[0]), 10_000, 'the wallet payment'))!.pgCno;
    const confirmPath = `${walletPath}/cancel?${new URLSearchParams({ pgCno: walletPgCno, type: 'partial', amount: '8000' }).toString()}`;
    const confirm = await agent.get(confirmPath).set('Host', HOST).expect(200);
    const shopTransactionId = /name="shopTransactionId" value="([^"]+)"/.exec(confirm.text)![1]!;
    await post(`${walletPath}/cancel`, { pgCno: walletPgCno, type: 'partial', amount: '8000', shopTransactionId }).expect(303);

    // A card order paid 3,000 of the 30,000 expected (an amount mismatch), partly cancelled, its approval redelivered changed (a conflict).
    const cardOrder = order('CARD');
    await receiver.api(`/v1/orders/${MALL_ID}/${cardOrder}/expectation`, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null }, 'PUT');
    const cardPgCno = `${Date.now()}01`;
    const cardPayment = approvalNotification({ mallId: MALL_ID, shopOrderNo: cardOrder, pgCno: cardPgCno, amount: '3000', transactionDate: minutesAgo(9) });
    await notify(cardPayment);
    await notify(changeNotification({ mallId: MALL_ID, shopOrderNo: cardOrder, pgCno: cardPgCno, cancelPgCno: `${cardPgCno}9`, cancelAmount: '1000', amount: '1000', cancelRemainAmount: '2000', cancelDate: minutesAgo(5) }));
    await notify({ ...cardPayment, amount: '3500' });
    // A virtual account deposited and cancelled; an escrow status; a refund paid and one that failed.
    const depositOrder = order('VACCT');
    const depositPgCno = `${Date.now()}02`;
    await notify(depositNotification({ mallId: MALL_ID, shopOrderNo: depositOrder, pgCno: depositPgCno, amount: '20000' }));
    await notify(depositCancelNotification({ mallId: MALL_ID, shopOrderNo: depositOrder, pgCno: depositPgCno, amount: '20000' }));
    const escrowOrder = order('ESCROW');
    await notify(escrowNotification({ mallId: MALL_ID, shopOrderNo: escrowOrder }));
    const refundOrder = order('REFUND');
    const refundPgCno = `${Date.now()}03`;
    await notify(approvalNotification({ mallId: MALL_ID, shopOrderNo: refundOrder, pgCno: refundPgCno, amount: '12000', transactionDate: minutesAgo(4) }));
    await notify(refundNotification({ mallId: MALL_ID, shopOrderNo: refundOrder, pgCno: refundPgCno, cancelPgCno: `${refundPgCno}8`, amount: '5000', refundDate: minutesAgo(3) }));
    await notify(transferFailedNotification({ mallId: MALL_ID, shopOrderNo: refundOrder, pgCno: refundPgCno, amount: '7000', refundDate: minutesAgo(2) }));
    // A UnionPay approval (event 70, EUC-KR form).
    const unionPay = unionPayForm({ order_no: order('UNIONPAY'), amount: '12000' });
    expect((await fetch(receiver.notifyUrl, { method: 'POST', headers: { 'Content-Type': unionPay.contentType }, body: unionPay.body })).status).toBe(200);
    // Refused: an amount that is no number, and a mall this receiver does not serve.
    await notify(approvalNotification({ mallId: MALL_ID, shopOrderNo: order('BAD'), amount: 'twelve' }), 400);
    await notify(approvalNotification({ mallId: 'T9999999', shopOrderNo: order('OTHER') }), 400);

    await eventually(async () => (await ledger.getOrder({ mallId: MALL_ID, shopOrderNo: refundOrder }))?.status === 'refund_failed', 10_000, 'the failed refund in the ledger');
    const eventIds = (await store.searchEvents({ limit: 50, offset: 0 })).map((e) => e.eventId);
    const [rejection] = await store.listRejections(5);
    const [conflict] = await store.listConflicts(1);
    // Audit rows: a refused reprocess, an operator added who may cancel, an export, a discrepancy resolved.
    await post(`/console/rejections/${rejection!.id}/reprocess`, {});
    await post('/console/operators/add', { name: '이서연', role: 'operator', can_cancel: 'on' }).expect(200);
    await agent.get('/console/exports/orders.csv').set('Host', HOST).expect(200);
    // Names the store refuses, answered on the Operators page.
    for (const name of [' 이서연', 'admin', '이서연', '']) answers.push({ name: `operator name ${JSON.stringify(name)}`, text: (await post('/console/operators/add', { name, role: 'operator' })).text });
    const open = (await receiver.api('/v1/discrepancies?open=true')).body.discrepancies as Array<{ id: string; kind: string }>;
    await post(`/console/discrepancies/${open.find((d) => d.kind === 'amount_mismatch')!.id}/resolve`, { note: '고객에게 확인함', back: 'list' }).expect(303);

    // A viewer refused a page that needs more (the refusal page), in Korean too.
    const viewerToken = newSecret();
    await store.addOperator({ name: '최유나', role: 'viewer', tokenHash: secretHash(viewerToken), createdAt: new Date().toISOString() });
    const viewer = request.agent(admin);
    await viewer.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token: viewerToken }).expect(303);
    answers.push({ name: 'refused to a viewer', text: (await viewer.get('/console/operators').set('Host', HOST).set('Accept-Language', 'ko-KR').expect(403)).text });
    answers.push({ name: 'sign-in page', text: (await request(admin).get('/console/sign-in').set('Host', HOST).set('Accept-Language', 'ko-KR').expect(200)).text });

    const today = kstDay(new Date().toISOString());
    pages.push(
      { name: 'overview', path: '/console' },
      { name: 'events', path: '/console/events' },
      ...eventIds.map((id, i) => ({ name: `event ${i}`, path: `/console/events/${encodeURIComponent(id)}` })),
      { name: 'rejections', path: '/console/rejections' },
      ...(await store.listRejections(5)).map((r) => ({ name: `rejection ${r.id}`, path: `/console/rejections/${r.id}` })),
      { name: 'conflicts', path: '/console/conflicts' },
      { name: 'conflict', path: `/console/conflicts/${conflict!.id}` },
      { name: 'orders', path: '/console/orders' },
      ...[walletOrder, cardOrder, depositOrder, escrowOrder, refundOrder].map((no) => ({ name: `order ${no}`, path: `/console/orders/${MALL_ID}/${encodeURIComponent(no)}` })),
      { name: 'cancel confirmation', path: confirmPath.replace('amount=8000', 'amount=2000') },
      { name: 'cancel refused', path: confirmPath, status: 400 },
      { name: 'search', path: '/console/orders?q=12000' },
      { name: 'discrepancies', path: '/console/discrepancies' },
      { name: 'playbooks', path: '/console/playbooks' },
      { name: 'commands', path: '/console/commands' },
      { name: 'command', path: `/console/commands/${shopTransactionId}` },
      { name: 'audit', path: '/console/audit' },
      { name: 'operators', path: '/console/operators' },
      { name: 'month', path: '/console/summary' },
      { name: 'day', path: `/console/summary/${today}` },
      { name: 'not found', path: `/console/orders/${MALL_ID}/ORD-0000`, status: 404 },
      { name: 'bad request', path: '/console/exports/orders.csv?from=2026-02-30', status: 400 },
    );
  });
  afterAll(async () => {
    await sandbox?.stop();
    await receiver?.close();
  });

  test('no page shows a Latin word but identifiers, nor a particle written for both endings', async () => {
    const findings: Array<{ name: string; words: string[] }> = [];
    for (const { name, path, status } of pages) {
      const page = await agent.get(path).set('Host', HOST);
      expect({ name, status: page.status, lang: /<html lang="(\w+)"/.exec(page.text)?.[1] }).toEqual({ name, status: status ?? 200, lang: 'ko' });
      const words = [...latinWords(page.text), ...doubleParticles(page.text).map((w) => `a particle for both endings: ${w}`)];
      if (words.length > 0) findings.push({ name, words });
    }
    for (const { name, text } of answers) {
      const words = [...latinWords(text), ...doubleParticles(text).map((w) => `a particle for both endings: ${w}`)];
      if (words.length > 0) findings.push({ name, words });
    }
    expect(findings).toEqual([]);
  });
});
