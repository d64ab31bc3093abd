import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdminApp } from '../../src/admin/admin-app';
import { loadConfig } from '../../src/config/env';
import { kstStamp } from '../../src/notifications/kst-date';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import type { RunningSandbox } from '../../src/sandbox/sandbox-app';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { describeBrowser, launchBrowser, stopListening, type TestBrowser, listenForBrowser } from '../helpers/browser';
import { eventually } from '../helpers/eventually';
import { startLedgerReceiver, type LedgerReceiver } from '../sandbox/ledger-receiver';
import { MALL_ID, sandboxForTests, settledNotifications, uniqueId } from '../sandbox/sandbox-fixtures';
import { ADMIN_TOKEN, consoleSessions } from './console-harness';

/** docs/console-ko-search.png and console-ko-order-cancel.png are refreshed on request only (UPDATE_SCREENSHOTS=1). */
const shotsDir = () => (process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs') : mkdtempSync(join(tmpdir(), 'console-cancel-shots-')));

describeBrowser('searching a payment and cancelling it from the order page, in a browser, in Korean', () => {
  let sandbox: RunningSandbox;
  let receiver: LedgerReceiver;
  let browser: TestBrowser;
  let server: Server;
  let url: string;
  let shots: string;

  beforeAll(async () => {
    shots = shotsDir();
    sandbox = await sandboxForTests();
    receiver = await startLedgerReceiver(sandbox.url);
    const { store, commands, ledger } = receiver.stores;
    const admin = createAdminApp({
      store,
      publisher: { kind: 'none', publish: async () => undefined, status: () => ({ connected: false, detail: 'no relay in this test' }), close: async () => undefined },
      relay: null, metrics: createMetrics(), isShuttingDown: () => false,
      console: {
        store, commands, ledger, gatewayCommands: receiver.commandDeps, adminToken: ADMIN_TOKEN, now: () => new Date(),
        logger: createLogger({ level: 'error', silent: true }), config: loadConfig({ TRUST_PROXY: '127.0.0.1,::1' }), sessions: consoleSessions(store, ADMIN_TOKEN),
      },
    });
    ({ server, url } = await listenForBrowser(admin));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (server) await stopListening(server);
    await sandbox?.stop();
    await receiver?.close();
    if (!process.env.UPDATE_SCREENSHOTS && shots) rmSync(shots, { recursive: true, force: true });
  });

  test('"12,000원 paid yesterday" is found, and a partial cancel is confirmed with the amount and what is left, then shown as requested', async () => {
    // Two card payments of 12,000 won (the portal's) and a wallet trade of 12,000 won this service created and can cancel.
    const notify = (body: Record<string, string>) => fetch(receiver.notifyUrl, { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });
    const yesterday = kstStamp(new Date(Date.now() - 24 * 60 * 60 * 1000));
    expect((await notify(approvalNotification({ shopOrderNo: 'ORD-20261127-0042', amount: '12000', approvalNo: '30087151', transactionDate: yesterday }))).status).toBe(200);
    expect((await notify(approvalNotification({ shopOrderNo: 'ORD-20261128-0007', amount: '12000', approvalNo: '30091277', issuerName: '신한카드', issuerCode: '027', installmentMonth: '03' }))).status).toBe(200);
    const shopOrderNo = uniqueId('ORD-W');
    const created = await receiver.api('/v1/wallet-a/trades', {
      mallId: MALL_ID, shopOrderNo, goodsName: 'Merino wool socks', tradeType: 'mweb', amountInfo: { totalAmount: 12000, currency: 'KRW' }, notifyUrl: receiver.notifyUrl,
    });
    const token = new URL(String((created.body.response as Record<string, unknown>).paymentPageUrl)).pathname.split('/').pop();
    expect((await fetch(`${sandbox.url}/pay/${token}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    await settledNotifications(sandbox, 1);

    const page = await browser.context.newPage();
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'ko-KR,ko;q=0.9' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${url}/console`);
    await page.getByLabel('토큰').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: '로그인' }).click();
    await page.locator('header nav').getByRole('link', { name: '주문' }).click();
    await page.getByLabel('검색').fill('12,000원');
    await page.getByRole('button', { name: '찾기' }).click();
    await page.getByText('“12,000원” 검색 결과: 주문 3건').waitFor();
    await page.screenshot({ path: join(shots, 'console-ko-search.png'), fullPage: true });

    // The one this service can cancel: its page, what the gateway said, Cancel.
    await page.getByRole('link', { name: shopOrderNo }).click();
    await page.getByRole('heading', { name: '결제: 게이트웨이 응답 내용' }).waitFor();
    await page.getByLabel('일부:').check();
    await page.getByLabel('취소할 금액').fill('3,000');
    await page.getByRole('button', { name: '취소', exact: true }).click();
    await page.getByRole('heading', { name: '결제 취소' }).waitFor();
    await page.getByText('취소 후 이 결제의 잔액: 9,000원').waitFor();
    await page.screenshot({ path: join(shots, 'console-ko-order-cancel.png'), fullPage: true });

    await page.getByRole('button', { name: '3,000원 취소' }).click();
    await page.getByRole('status').waitFor();
    await eventually(async () => (await receiver.stores.ledger.getOrder({ mallId: MALL_ID, shopOrderNo }))!.cancelled === 3000, 10_000, 'event 20 in the record');
    await page.reload();
    await page.getByText('게이트웨이의 이벤트 20으로 확인됨').waitFor();
    await page.close();
  });
});
