import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSandbox } from '../../src/sandbox/sandbox-app';
import { describeBrowser, launchBrowser, type TestBrowser } from '../helpers/browser';
import { cancelBody, post, receiverForSandbox, sandboxForTests, settledNotifications, tradeBody, uniqueId, type ListeningReceiver } from './sandbox-fixtures';

/** The README's screenshots are refreshed on request only, so a test run leaves the tree clean. */
const shotsDir = () => (process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs') : mkdtempSync(join(tmpdir(), 'sandbox-shots-')));

describeBrowser('a rehearsal: the sandbox against the real receiver, paid in a real browser', () => {
  let receiver: ListeningReceiver;
  let sandbox: RunningSandbox;
  let browser: TestBrowser;
  let SHOTS: string;
  beforeAll(async () => {
    SHOTS = shotsDir();
    receiver = await receiverForSandbox();
    await receiver.listen();
    sandbox = await sandboxForTests({ defaultNotifyUrl: receiver.notifyUrl });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await sandbox?.stop();
    await receiver?.shutdown();
    if (!process.env.UPDATE_SCREENSHOTS && SHOTS) rmSync(SHOTS, { recursive: true, force: true });
  });

  test('a trade paid on its payment page reaches the queue as payment.approved; two partial cancels as two payment.changed', async () => {
    const order = tradeBody({ notifyUrl: receiver.notifyUrl, goodsName: 'Merino wool socks (2 pairs)' });
    const trade = await post(`${sandbox.url}/api/trades/wallet-a`, order);
    expect(trade.body).toMatchObject({ resCd: '0000', shopTransactionId: order.shopTransactionId });

    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 720, height: 640 });
    await page.goto(String(trade.body.paymentPageUrl));
    await page.getByText('$12.03').waitFor();
    await page.screenshot({ path: join(SHOTS, 'sandbox-payment-page.png') });
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('heading', { name: 'Payment approved' }).waitFor();

    const [approved] = await receiver.forwarded(1);
    expect(approved).toMatchObject({ type: 'payment.approved', shopOrderNo: order.shopOrderNo, amount: 1203, resultMessage: '정상처리' });
    const pgCno = approved!.pgCno;

    // The first cancel meets a busy gateway (A213) and is resent with the same key, as the service does.
    await post(`${sandbox.url}/sandbox/scenarios`, { operation: 'wallet-b.revise', kind: 'code', code: 'A213' });
    for (const amount of [300, 200]) {
      const body = cancelBody(pgCno, { amountInfo: { totAmount: amount, currency: 'USD' } });
      let cancel = await post(`${sandbox.url}/api/trades/wallet-b/revise`, body);
      if (cancel.body.resCd === 'A213') cancel = await post(`${sandbox.url}/api/trades/wallet-b/revise`, body);
      expect(cancel.body.resCd).toBe('0000');
    }
    const events = await receiver.forwarded(3);
    const changed = events.filter((e) => e.type === 'payment.changed');
    expect(changed).toHaveLength(2);
    expect(changed.every((e) => e.pgCno === pgCno && e.status?.message === '부분매입취소')).toBe(true);
    expect(new Set(changed.map((e) => e.cancelPgCno)).size).toBe(2);
    expect(changed.map((e) => e.data.cancelRemainAmount)).toEqual(['903', '703']);

    await settledNotifications(sandbox, 3);
    await page.setViewportSize({ width: 1320, height: 760 });
    await page.goto(`${sandbox.url}/sandbox/timeline`);
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'sandbox-timeline.png'), fullPage: true });
    expect(await page.locator('tbody tr').count()).toBe(7);
    await page.close();
  });

  test('a UnionPay VAN approval reaches the queue as unionpay.confirmed with its Korean text intact', async () => {
    const shopOrderNo = uniqueId('ORD-UP');
    const approval = await post(`${sandbox.url}/smpy/vanpay/reqAprv`, {
      mallId: 'T0001234', shopTransactionId: uniqueId('van'), shopOrderNo, amount: '33000', cardNo: '6212345678901234', notifyUrl: receiver.notifyUrl,
    });
    expect(approval.body.resCd).toBe('0000');
    const events = await receiver.forwarded(4);
    const unionPay = events.find((e) => e.shopOrderNo === shopOrderNo);
    expect(unionPay).toMatchObject({ type: 'unionpay.confirmed', pgCno: approval.body.pgCno, amount: 33000, resultMessage: '정상처리되었습니다' });
  });

  test("a scenario set on the sandbox's page answers the next call with its code", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${sandbox.url}/sandbox`);
    await page.getByRole('combobox', { name: 'Operation' }).selectOption('wallet-a.create');
    await page.getByRole('combobox', { name: 'What' }).selectOption('code');
    await page.getByRole('textbox', { name: 'Code' }).fill('A213');
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('cell', { name: 'answer A213' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'sandbox-scenarios.png'), fullPage: true });
    await page.close();

    const body = tradeBody({ notifyUrl: receiver.notifyUrl });
    expect((await post(`${sandbox.url}/api/trades/wallet-a`, body)).body.resCd).toBe('A213');
    expect((await post(`${sandbox.url}/api/trades/wallet-a`, body)).body.resCd).toBe('0000');
  });

  test('a trade declined on its payment page sends no notification', async () => {
    const trade = await post(`${sandbox.url}/api/trades/wallet-a`, tradeBody({ notifyUrl: receiver.notifyUrl }));
    const before = sandbox.context.timeline.entries().filter((e) => e.kind === 'notification').length;
    const page = await browser.context.newPage();
    await page.goto(String(trade.body.paymentPageUrl));
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.getByRole('heading', { name: 'Payment declined' }).waitFor();
    await page.close();
    expect(sandbox.context.timeline.entries().filter((e) => e.kind === 'notification')).toHaveLength(before);
  });
});
