import { join } from 'node:path';
import { kstDay } from '../../src/ledger/summary/kst-day';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { describeBrowser } from '../helpers/browser';
import { consoleInBrowser } from '../console/console-in-browser';

const MALL = 'T0001234';
const DAY = '2026-11-27';

describeBrowser('closing a day in a browser, in Korean', () => {
  /** docs/console-summary-closed-day.png is refreshed on request only (UPDATE_SCREENSHOTS=1). */
  const session = consoleInBrowser();
  const today = kstDay(new Date().toISOString());

  beforeAll(async () => {
    const { h } = session();
    const notify = (body: Record<string, string>) => h.ledgerApp.notify(body).expect(200);
    for (let i = 0; i < 3; i++) {
      await notify(approvalNotification({ mallId: MALL, shopOrderNo: `2026112${i}`, pgCno: `PG271${i}`, amount: String(15000 + 5000 * i), transactionDate: kstStamp(new Date(`${DAY}T1${i}:00:00+09:00`)) }));
    }
    await h.ledgerApp.stores.ledger.putSettlementRows('statement-1', MALL, [0, 1, 2].map((i) => {
      const gross = 15000 + 5000 * i;
      const fee = Math.round(gross * 0.03);
      const feeVat = Math.round(fee / 10);
      return { line: i + 2, pgCno: `PG271${i}`, cancelPgCno: null, shopOrderNo: `2026112${i}`, gross, fee, feeVat, payout: gross - fee - feeVat, payoutDay: '2026-11-30', transactionDay: DAY };
    }));
    await h.ledgerApp.stores.ledger.caughtUp();
  });

  test('an operator closes the day after its confirmation; a payment for it arriving later is shown on both days, the closed day\'s figures unchanged', async () => {
    const { h, url, shots, koreanBrowserPage } = session();
    const { context, page } = await koreanBrowserPage(await h.addOperator('kang', 'operator'));
    await page.goto(`${url}/console/summary/${DAY}?mall=${MALL}`);
    await page.getByRole('button', { name: `${MALL} 상점의 이 날 마감` }).click();
    await page.getByRole('heading', { name: `${DAY}을(를) 마감할까요?` }).waitFor();
    await page.getByRole('button', { name: `네, ${DAY} 마감` }).click();
    await page.locator('p.notice').getByText('마감했습니다.').waitFor();

    await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo: '20261129', pgCno: 'PG2719', amount: '8800', transactionDate: kstStamp(new Date(`${DAY}T23:50:00+09:00`)) })).expect(200);
    await h.ledgerApp.stores.ledger.caughtUp();
    await page.reload();
    const krw = page.locator('section.summary-day[data-currency="KRW"]');
    expect(await krw.getByRole('row', { name: /^순액/ }).innerText()).toContain('60,000원');
    expect(await krw.locator('tr.adjusted-later').innerText()).toContain(`이후 조정 (${today})`);
    expect(await krw.locator('tr.adjusted-later').innerText()).toContain('+8,800원');
    expect(await krw.locator('tr.fees-total').innerText()).toContain('1,980원');
    expect(await page.locator('.day-close[data-closed="true"]').innerText()).toContain('마감했습니다');
    await page.screenshot({ path: join(shots, 'console-summary-closed-day.png'), fullPage: true });

    await page.goto(`${url}/console/summary/${today}?mall=${MALL}`);
    expect(await page.locator(`tr.adjustment[data-adjusts="${DAY}"]`).innerText()).toContain('+8,800원');
    expect(await page.locator('tr.net-with-adjustments').innerText()).toContain('8,800원');
    await context.close();
  }, 60_000);
});
