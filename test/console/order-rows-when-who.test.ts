import request from 'supertest';
import { createAdminApp } from '../../src/admin/admin-app';
import { loadConfig } from '../../src/config/env';
import type { ConsoleDeps } from '../../src/console/console-deps';
import { translatorFor } from '../../src/console/i18n/translator';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import type { RunningSandbox } from '../../src/sandbox/sandbox-app';
import { approvalNotification, transferFailedNotification } from '../../src/simulator/notification-builders';
import { newSecret, secretHash } from '../../src/store/operator-credentials';
import { eventually } from '../helpers/eventually';
import { startLedgerReceiver, type LedgerReceiver } from '../sandbox/ledger-receiver';
import { MALL_ID, sandboxForTests, settledNotifications, uniqueId } from '../sandbox/sandbox-fixtures';
import { ADMIN_TOKEN, HOST, ORIGIN, consoleSessions, csrfIn } from './console-harness';
import { readableText } from './latin-words';

/** A timeline row of the order page, as text: the one whose second cell starts with `what`. */
function row(page: string, what: string): string {
  const rows = [...page.matchAll(/<tr><td>([\s\S]*?)<\/tr>/g)].map((m) => readableText(`<td>${m[1]!}`).trim());
  const found = rows.find((r) => r.includes(` ${what} `));
  if (!found) throw new Error(`no row "${what}" in ${rows.join('\n')}`);
  return found;
}

/**
 * The order page says when and through whom each thing the record lists apart happened (the
 * expectation, a cancel asked for), and what the bank said of a refund it could not pay out.
 */
describe("the order page's rows say when, who and what the bank said", () => {
  jest.setTimeout(60_000);
  let sandbox: RunningSandbox;
  let receiver: LedgerReceiver;
  let agent: request.Agent;
  let csrf: string;

  beforeAll(async () => {
    sandbox = await sandboxForTests();
    receiver = await startLedgerReceiver(sandbox.url);
    const { store, commands, ledger } = receiver.stores;
    const deps: ConsoleDeps = {
      store, commands, ledger, gatewayCommands: receiver.commandDeps, adminToken: ADMIN_TOKEN, now: () => new Date(),
      logger: createLogger({ level: 'error', silent: true }),
      config: loadConfig({ TRUST_PROXY: '127.0.0.1,::1' }),
      sessions: consoleSessions(store, ADMIN_TOKEN),
    };
    const admin = createAdminApp({
      store,
      publisher: { kind: 'none', publish: async () => undefined, status: () => ({ connected: false, detail: 'none' }), close: async () => undefined },
      relay: null, metrics: createMetrics(), isShuttingDown: () => false, console: deps,
    });
    const token = newSecret();
    await store.addOperator({ name: '박지훈', role: 'operator', tokenHash: secretHash(token), createdAt: new Date().toISOString(), canCancel: true });
    agent = request.agent(admin);
    expect((await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token })).status).toBe(303);
    csrf = csrfIn((await agent.get('/console/orders').set('Host', HOST)).text);
  });
  afterAll(async () => {
    await sandbox?.stop();
    await receiver?.close();
  });

  const page = async (shopOrderNo: string, language: string) =>
    (await agent.get(`/console/orders/${MALL_ID}/${encodeURIComponent(shopOrderNo)}`).set('Host', HOST).set('Accept-Language', language).expect(200)).text;

  test('the expectation shows when it was stored and that the shop set it through the internal API', async () => {
    const shopOrderNo = uniqueId('ORD-EXP');
    const before = Date.now();
    await receiver.api(`/v1/orders/${MALL_ID}/${shopOrderNo}/expectation`, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null }, 'PUT');
    const setAt = (await receiver.stores.ledger.getOrder({ mallId: MALL_ID, shopOrderNo }))!.expected!.setAt!;
    expect(Date.parse(setAt)).toBeGreaterThanOrEqual(before - 1000);
    const [ko, en] = [translatorFor('ko'), translatorFor('en')];
    const korean = row(await page(shopOrderNo, 'ko'), '예상 금액 등록');
    expect(korean).toContain(ko.time(setAt));
    expect(korean).toContain('내부 API(쇼핑몰 시스템)에서 등록');
    const english = row(await page(shopOrderNo, 'en'), 'expectation');
    expect(english).toContain(en.time(setAt));
    expect(english).toContain("set through the internal API (the shop's system)");
  });

  test('a cancel asked for in the console shows when and which operator asked, its state in words', async () => {
    const shopOrderNo = uniqueId('ORD-ASK');
    const created = await receiver.api('/v1/wallet-a/trades', {
      mallId: MALL_ID, shopOrderNo, goodsName: 'Socks', tradeType: 'mweb', amountInfo: { totalAmount: 12000, currency: 'KRW' }, notifyUrl: receiver.notifyUrl,
    });
    const payToken = new URL(String((created.body.response as Record<string, unknown>).paymentPageUrl)).pathname.split('/').pop();
    expect((await fetch(`${sandbox.url}/pay/${payToken}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    await settledNotifications(sandbox, 1);
    const pgCno = (await eventually(() => receiver.stores.ledger.getOrder({ mallId: MALL_ID, shopOrderNo }).then((o) => o?.payments[0]), 10_000, 'the payment'))!.pgCno;
    const path = `/console/orders/${MALL_ID}/${encodeURIComponent(shopOrderNo)}`;
    const confirm = await agent.get(`${path}/cancel?pgCno=${pgCno}&type=partial&amount=3000`).set('Host', HOST).expect(200);
    const shopTransactionId = /name="shopTransactionId" value="([^"]+)"/.exec(confirm.text)![1]!;
    await agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, pgCno, type: 'partial', amount: '3000', shopTransactionId }).expect(303);
    const command = (await receiver.stores.commands.getCommand(shopTransactionId))!;
    await eventually(async () => (await receiver.stores.ledger.getOrder({ mallId: MALL_ID, shopOrderNo }))!.cancellationsRequested.length > 0, 10_000, 'the cancel in the record');

    const korean = row(await page(shopOrderNo, 'ko'), '취소 요청');
    expect(korean).toContain(translatorFor('ko').time(command.createdAt));
    expect(korean).toContain('콘솔에서 박지훈 (127.0.0.1) 님이 요청');
    expect(korean).toContain('성공');
    expect(korean).not.toMatch(/\bsucceeded\b/);
    const english = row(await page(shopOrderNo, 'en'), 'cancellation requested');
    expect(english).toContain('asked by 박지훈 (127.0.0.1) in the console');
    // The wallet-a trade's expectation: the shop's system too.
    expect(row(await page(shopOrderNo, 'ko'), '예상 금액 등록')).toContain('내부 API(쇼핑몰 시스템)에서 등록');
  });

  test("a failed refund shows the bank's message beside its code, escaped and with an account number masked", async () => {
    const shopOrderNo = uniqueId('ORD-BANK');
    const pgCno = `${Date.now()}07`;
    const notify = (body: Record<string, string>) => fetch(receiver.notifyUrl, { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });
    expect((await notify(approvalNotification({ mallId: MALL_ID, shopOrderNo, pgCno, amount: '12000' }))).status).toBe(200);
    expect((await notify(transferFailedNotification({ mallId: MALL_ID, shopOrderNo, pgCno, amount: '12000', resMsg: '계좌번호 오류 110123456789 <b>확인</b>' }))).status).toBe(200);
    await eventually(async () => (await receiver.stores.ledger.getOrder({ mallId: MALL_ID, shopOrderNo }))?.status === 'refund_failed', 10_000, 'the failed refund');
    const html = await page(shopOrderNo, 'ko');
    expect(readableText(html)).toContain('B102 은행 메시지: 계좌번호 오류 ********6789 <b>확인</b>');
    expect(html).not.toContain('<b>확인</b>');
    expect(html).not.toContain('110123456789');
    expect(readableText(await page(shopOrderNo, 'en'))).toContain("The bank's message: 계좌번호 오류 ********6789");
  });
});
