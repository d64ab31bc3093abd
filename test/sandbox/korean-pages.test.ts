import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { en } from '../../src/console/i18n/en';
import type { RunningSandbox } from '../../src/sandbox/sandbox-app';
import { describeBrowser, launchBrowser, type TestBrowser } from '../helpers/browser';
import { post, receiverForSandbox, sandboxForTests, tradeBody, type ListeningReceiver } from './sandbox-fixtures';

const PAGE_WORDS = readFileSync(join(__dirname, '..', 'console', 'browser-scripts', 'page-words.js'), 'utf8');
/** Codes, the gateway's own text, what the shop wrote (goods' names) and English scenario descriptions are allowed. */
const ALLOWED_IN = 'code, pre, .mono, .gateway-text, .data, [lang="en"], script, style';

async function findings(page: Page): Promise<{ keys: string[]; english: string[] }> {
  const args = JSON.stringify({ keys: Object.keys(en), allowedIn: ALLOWED_IN, dataWords: ['Merino', 'wool', 'socks'] });
  return page.evaluate(`(${PAGE_WORDS.trim().replace(/;$/, '')})(${args})`) as Promise<{ keys: string[]; english: string[] }>;
}

describeBrowser("the sandbox's pages in Korean, in a browser", () => {
  jest.setTimeout(120_000);
  let receiver: ListeningReceiver;
  let sandbox: RunningSandbox;
  let browser: TestBrowser;
  beforeAll(async () => {
    receiver = await receiverForSandbox();
    await receiver.listen();
    sandbox = await sandboxForTests({ defaultNotifyUrl: receiver.notifyUrl });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await sandbox?.stop();
    await receiver?.shutdown();
  });

  test('a browser that prefers Korean gets the payment page, the scenarios and the timeline in Korean, with won as Korean readers write it', async () => {
    const trade = await post(`${sandbox.url}/api/trades/wallet-a`, tradeBody({ notifyUrl: receiver.notifyUrl, goodsName: 'Merino wool socks', amountInfo: { totalAmount: 12000, currency: 'KRW' } }));
    const context = await browser.browser.newContext({ locale: 'ko-KR' });
    const page = await context.newPage();
    await page.goto(String(trade.body.paymentPageUrl));
    await page.getByRole('button', { name: '결제하기' }).waitFor();
    await page.getByText('12,000원').waitFor();
    expect(await findings(page)).toEqual({ keys: [], english: [] });
    await page.getByRole('button', { name: '결제하기' }).click();
    await page.getByRole('heading', { name: '결제 승인' }).waitFor();
    expect(await findings(page)).toEqual({ keys: [], english: [] });
    for (const path of ['/sandbox', '/sandbox/timeline']) {
      await page.goto(`${sandbox.url}${path}`);
      await page.locator('h1').waitFor();
      expect({ path, ...(await findings(page)) }).toEqual({ path, keys: [], english: [] });
    }
    // The header's English link, for one page.
    await page.getByRole('link', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await context.close();
  });
});
