import type { Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { describeBrowser, launchBrowser, stopListening, type TestBrowser, listenForBrowser } from '../helpers/browser';
import { startLedgerConsole, type LedgerConsole } from '../console/ledger-console-harness';
import { parseCsv, parseXlsx } from './xlsx-sheet';

const MALL = 'T0001234';
/** docs/console-exports.png is refreshed on request only (UPDATE_SCREENSHOTS=1), so a test run leaves the tree clean. */
const shotsDir = () => (process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs') : mkdtempSync(join(tmpdir(), 'export-shots-')));
const kstDay = (at = new Date()) => new Date(at.getTime() + 9 * 3600_000).toISOString().slice(0, 10);

describeBrowser('downloading a list from the console, in a browser', () => {
  let h: LedgerConsole;
  let browser: TestBrowser;
  let server: Server;
  let url: string;
  let shots: string;
  const downloads = mkdtempSync(join(tmpdir(), 'export-downloads-'));

  beforeAll(async () => {
    shots = shotsDir();
    h = await startLedgerConsole();
    const stamp = Date.now() % 100000;
    const minutesAgo = (n: number) => kstStamp(new Date(Date.now() - n * 60_000));
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/ORD-2026-${stamp}-1/expectation`, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null }).expect(200);
    await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo: `ORD-2026-${stamp}-1`, amount: '3000', transactionDate: minutesAgo(9) })).expect(200);
    await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo: `ORD-2026-${stamp}-2`, amount: '12000', transactionDate: minutesAgo(5) })).expect(200);
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/ORD-2026-${stamp}-3/expectation`, { amount: 1203, currency: 'USD', method: 'card', expiresAt: null }).expect(200);
    await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo: `ORD-2026-${stamp}-3`, amount: '1203', transactionDate: minutesAgo(2) })).expect(200);
    await h.ledgerApp.api.get(`/v1/orders/${MALL}/ORD-2026-${stamp}-3`).expect(200);
    ({ server, url } = await listenForBrowser(h.admin));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (server) await stopListening(server);
    await h?.close();
    rmSync(downloads, { recursive: true, force: true });
    if (!process.env.UPDATE_SCREENSHOTS && shots) rmSync(shots, { recursive: true, force: true });
  });

  test('an operator reading Korean downloads the Orders list of a range as 엑셀 and as CSV, named by the range', async () => {
    const token = await h.addOperator('park', 'operator');
    const context = await browser.browser.newContext({ locale: 'ko-KR', acceptDownloads: true });
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 820 });
    await page.goto(`${url}/console`);
    await page.locator('input[name="token"]').fill(token);
    await page.locator('input[name="token"]').press('Enter');
    await page.waitForURL(/\/console\/?$/);
    const today = kstDay();
    await page.goto(`${url}/console/orders?from=${today}&to=${today}`);
    await page.getByRole('button', { name: '엑셀 내려받기' }).waitFor();
    await page.screenshot({ path: join(shots, 'console-exports.png'), fullPage: false });

    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '엑셀 내려받기' }).click()]);
    expect(xlsx.suggestedFilename()).toBe(`orders_${today}_${today}.xlsx`);
    await xlsx.saveAs(join(downloads, 'orders.xlsx'));
    const book = parseXlsx(readFileSync(join(downloads, 'orders.xlsx')));
    expect(book.sheetNames).toEqual(['주문']);
    expect(book.sheets[0]!.length).toBe(1 + 3);

    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV 내려받기', exact: true }).click()]);
    expect(csv.suggestedFilename()).toBe(`orders_${today}_${today}.csv`);
    await csv.saveAs(join(downloads, 'orders.csv'));
    const rows = parseCsv(readFileSync(join(downloads, 'orders.csv'), 'utf8').slice(1));
    expect(rows[0]!.slice(0, 3)).toEqual(['최종 변경 (KST, UTC+09:00)', '상점 ID (mallId)', '주문번호 (shopOrderNo)']);
    expect(rows).toHaveLength(1 + 3);

    // The Korean code page's button sends the same filters and asks for CP949.
    const [korean] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV 내려받기 (한국어 엑셀용 CP949)' }).click()]);
    await korean.saveAs(join(downloads, 'orders-cp949.csv'));
    const cp949 = readFileSync(join(downloads, 'orders-cp949.csv'));
    expect(cp949.includes(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    expect(parseCsv(iconv.decode(cp949, 'cp949'))[0]!.slice(0, 3)).toEqual(['최종 변경 (KST, UTC+09:00)', '상점 ID (mallId)', '주문번호 (shopOrderNo)']);
    await context.close();
  });
});
