import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, kstDay } from '../../src/ledger/summary/kst-day';
import { kstStamp } from '../../src/notifications/kst-date';
import {
  approvalNotification, changeNotification, depositCancelNotification, depositNotification, refundNotification, transferFailedNotification,
} from '../../src/simulator/notification-builders';
import { describeBrowser } from '../helpers/browser';
import { consoleInBrowser } from '../console/console-in-browser';
import { parseXlsx } from '../exports/xlsx-sheet';

const MALL = 'T0001234';

describeBrowser('settling the day in the console, in a browser, in Korean', () => {
  /** docs/console-summary-month.png, console-summary-day.png and console-summary-export.png are refreshed on request only (UPDATE_SCREENSHOTS=1). */
  const session = consoleInBrowser();
  const today = kstDay(new Date().toISOString());
  /** A KST stamp `daysAgo` days before today at `hour`:`minute` KST, kept within this month. */
  const on = (daysAgo: number, hour: number, minute = 0) => {
    const day = addDays(today, -Math.min(daysAgo, Number(today.slice(8)) - 1));
    return kstStamp(new Date(`${day}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00+09:00`));
  };

  beforeAll(async () => {
    const { h } = session();
    const notify = (body: Record<string, string>) => h.ledgerApp.notify(body).expect(200);
    const order = (n: number) => `20261${String(100 + n).padStart(4, '0')}`;
    // A shop's week: card payments every day, a cancel the next day, a virtual account paid and one cancelled, a refund that failed.
    for (let d = 0; d < 7; d++) {
      for (let i = 0; i < 3; i++) {
        const n = d * 3 + i;
        await notify(approvalNotification({ mallId: MALL, shopOrderNo: order(n), pgCno: `PG2611${n}A`, amount: String(15000 + 5000 * i + 1000 * d), transactionDate: on(d, 10 + i * 3, 15) }));
      }
      if (d > 0) {
        await notify(changeNotification({ mallId: MALL, shopOrderNo: order(d * 3), pgCno: `PG2611${d * 3}A`, cancelPgCno: `CX2611${d}`, cancelAmount: '5000', amount: '5000', cancelRemainAmount: String(10000 + 1000 * d), cancelDate: on(d - 1, 9, 40) }));
      }
    }
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/VA-9001/expectation`, { amount: 45000, currency: 'KRW', method: 'vaccount', expiresAt: null }).expect(200);
    await notify(depositNotification({ mallId: MALL, shopOrderNo: 'VA-9001', pgCno: 'PGVA9001', amount: '45000', depositDate: on(2, 14) }));
    await notify(depositNotification({ mallId: MALL, shopOrderNo: 'VA-9002', pgCno: 'PGVA9002', amount: '32000', depositDate: on(3, 11) }));
    await notify(depositCancelNotification({ mallId: MALL, shopOrderNo: 'VA-9002', pgCno: 'PGVA9002', amount: '32000', cancelDate: on(2, 16) }));
    await notify(changeNotification({ mallId: MALL, shopOrderNo: order(4), pgCno: 'PG26114A', cancelPgCno: 'CX26114R', cancelAmount: '20000', amount: '20000', cancelRemainAmount: '0', cancelDate: on(1, 13) }));
    await notify(refundNotification({ mallId: MALL, shopOrderNo: order(4), pgCno: 'PG26114A', cancelPgCno: 'CX26114R', amount: '20000', refundDate: on(1, 13, 5) }));
    await notify(transferFailedNotification({ mallId: MALL, shopOrderNo: order(7), pgCno: 'PG26117A', amount: '21000', refundDate: on(1, 15) }));
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/US-3001/expectation`, { amount: 4599, currency: 'USD', method: 'card', expiresAt: null }).expect(200);
    await notify(approvalNotification({ mallId: MALL, shopOrderNo: 'US-3001', pgCno: 'PGUS3001', amount: '4599', transactionDate: on(1, 20) }));
    // The simulator's order yesterday: its 13,200원 is in no figure of the day, and shown apart.
    await h.ledgerApp.notifySimulated(approvalNotification({ mallId: MALL, shopOrderNo: 'SIM-7001', pgCno: 'PGSIM7001', amount: '13200', transactionDate: on(1, 12) })).expect(200);
    await h.ledgerApp.stores.ledger.caughtUp();
  });

  test('an operator opens the month from the menu on today, sees each day\'s net, opens a day and its order', async () => {
    const { h, shots, koreanBrowserPage } = session();
    const { context, page } = await koreanBrowserPage(await h.addOperator('jung', 'viewer'));
    await page.locator('header nav').getByRole('link', { name: '일별 정산' }).click();
    const [year, month] = today.split('-').map(Number);
    await page.getByRole('heading', { name: `일별 정산 ${year}년 ${month}월` }).waitFor();
    const todayCell = page.locator(`td[data-day="${today}"]`);
    await todayCell.locator('.net').first().waitFor();
    await page.screenshot({ path: join(shots, 'console-summary-month.png'), fullPage: true });

    const yesterday = addDays(today, -Math.min(1, Number(today.slice(8)) - 1));
    await page.locator(`td[data-day="${yesterday}"] a.day-no`).click();
    await page.getByRole('heading', { name: `${yesterday} 정산` }).waitFor();
    await page.getByRole('row', { name: /취소·환불/ }).first().waitFor();
    // The day's net is the real orders'; the simulator's order is on a line of its own and marked where it is listed.
    const [real] = (await h.ledgerApp.stores.ledger.dailySummary({ from: yesterday, to: yesterday, mallId: MALL }, 'KRW')).filter((d) => d.currency === 'KRW');
    const krw = page.locator('section.summary-day[data-currency="KRW"]');
    expect(await krw.getByRole('row', { name: /^순액/ }).innerText()).toContain(`${real!.net.toLocaleString('en-US')}원`);
    expect(real!.simulated.payments).toMatchObject({ count: 1, amount: 13200 });
    const apart = krw.getByRole('row', { name: /시뮬레이션 주문 \(합계에서 제외\)/ });
    expect(await apart.innerText()).toContain('결제 1건 13,200원');
    expect(await page.getByRole('row', { name: /SIM-7001/ }).locator('.badge.simulated').innerText()).toBe('시뮬레이션');
    await page.screenshot({ path: join(shots, 'console-summary-day.png'), fullPage: true });
    await page.getByRole('link', { name: 'US-3001' }).click();
    await page.getByRole('heading', { name: 'US-3001' }).waitFor();
    await context.close();
  }, 60_000);

  test('an operator downloads yesterday\'s money for accounting from its day page, as 엑셀', async () => {
    const { h, url, shots, koreanBrowserPage } = session();
    const { context, page } = await koreanBrowserPage(await h.addOperator('kang', 'operator'), { acceptDownloads: true });
    const yesterday = addDays(today, -Math.min(1, Number(today.slice(8)) - 1));
    await page.goto(`${url}/console/summary/${yesterday}`);
    await page.getByRole('button', { name: '엑셀 내려받기' }).waitFor();
    await page.screenshot({ path: join(shots, 'console-summary-export.png'), fullPage: true });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '엑셀 내려받기' }).click()]);
    expect(download.suggestedFilename()).toBe(`summary_${yesterday}_${yesterday}.xlsx`);
    const file = join(shots, 'summary.xlsx');
    await download.saveAs(file);
    const book = parseXlsx(readFileSync(file));
    rmSync(file);
    expect(book.sheetNames).toEqual(['일별 정산']);
    const days = await h.ledgerApp.stores.ledger.dailySummary({ from: yesterday, to: yesterday, mallId: null }, 'KRW');
    // The day as an Excel date (its serial day), then one total line per currency.
    const serial = (day: string) => (Date.parse(`${day}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / 86_400_000;
    expect(book.sheets[0]!.slice(1).map((row) => [row[0]?.value, row[1]?.value, row[2]?.value])).toEqual([
      ...days.map((d) => [serial(d.date), d.mallId, d.currency]),
      ...[...new Set(days.map((d) => d.currency))].map((currency) => ['합계', undefined, currency]),
    ]);
    await context.close();
  }, 60_000);
});
