import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { describeBrowser, launchBrowser, stopListening, type TestBrowser, listenForBrowser } from '../helpers/browser';
import { startLedgerConsole, type LedgerConsole } from './ledger-console-harness';

const MALL = 'T0001234';

/** What a person would find wrong at this width, measured in the page. */
interface Layout {
  /** Order numbers laid out on more than one line (an inline box wrapped is several rects). */
  brokenOrderNumbers: string[];
  /** How many rows the menu's links sit on. */
  menuRows: number;
  /** The page is wider than the window (a sideways scroll bar). */
  overflowsWindow: boolean;
  /** Fields too narrow for their own placeholder (the search fields' too, issue 35 item 19). */
  cutPlaceholders: string[];
}

const LAYOUT_FAULTS = readFileSync(join(__dirname, 'browser-scripts', 'layout-faults.js'), 'utf8');
/** Runs browser-scripts/layout-faults.js in the page. */
const measure = (page: Page) => page.evaluate(`(${LAYOUT_FAULTS.trim().replace(/;$/, '')})()`) as Promise<Layout>;

describeBrowser('the console laid out at 1024 and 1440 px, in both languages', () => {
  jest.setTimeout(120_000);
  let h: LedgerConsole;
  let browser: TestBrowser;
  let server: Server;
  let url: string;
  let token: string;
  const stamp = Date.now() % 100000;
  const orders = [`ORD-20261127-${stamp}`, `SHOP-2026-11-27-${stamp}-01`, `ORD-KRW-${stamp}`];

  beforeAll(async () => {
    h = await startLedgerConsole();
    const at = kstStamp(new Date(Date.now() - 60_000));
    for (const [i, shopOrderNo] of orders.entries()) {
      // Expected 12,000, paid 1,200: each order has an open discrepancy, so every list shows it.
      await h.ledgerApp.api.put(`/v1/orders/${MALL}/${shopOrderNo}/expectation`, { amount: 12000, currency: 'KRW', method: 'card', expiresAt: null }).expect(200);
      await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: `PGLAYOUT${stamp}${i}`, amount: '1200', transactionDate: at })).expect(200);
      await h.ledgerApp.api.get(`/v1/orders/${MALL}/${shopOrderNo}`).expect(200);
    }
    token = await h.addOperator('layout-admin', 'admin');
    ({ server, url } = await listenForBrowser(h.admin));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (server) await stopListening(server);
    await h?.close();
  });

  test.each([['ko-KR', 1024], ['en-US', 1024], ['ko-KR', 1440], ['en-US', 1440]])('%s at %i px: order numbers on one line, the menu one row, nothing wider than the window, fields that show their placeholder, no failed request', async (locale, width) => {
    const context = await browser.browser.newContext({ locale, viewport: { width, height: 800 } });
    const failed: string[] = [];
    try {
      const page = await context.newPage();
      page.on('response', (answer) => { if (answer.status() >= 400) failed.push(`${answer.status()} ${new URL(answer.url()).pathname}`); });
      await page.goto(`${url}/console/sign-in`);
      await page.locator('#token').fill(token);
      await page.locator('main button[type="submit"]').click();
      await page.locator('h1').first().waitFor();
      for (const path of ['/console', '/console/orders', '/console/discrepancies', '/console/events', `/console/orders/${MALL}/${orders[1]}`, '/console/audit', '/console/operators', '/console/rejections', '/console/conflicts', '/console/commands', '/console/playbooks']) {
        await page.goto(`${url}${path}`);
        await page.locator('h1').first().waitFor();
        expect({ path, ...(await measure(page)) }).toEqual({ path, brokenOrderNumbers: [], menuRows: 1, overflowsWindow: false, cutPlaceholders: [] });
      }
      // The lists did show the order numbers measured.
      await page.goto(`${url}/console/orders`);
      expect(await page.locator('.order-no').allTextContents()).toEqual(expect.arrayContaining(orders));
      expect(failed).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
