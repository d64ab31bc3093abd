import { join } from 'node:path';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { kstStamp } from '../../src/notifications/kst-date';
import type { BookedTransaction } from '../../src/sandbox/gateway-books';
import { portalFile } from '../../src/sandbox/portal-files';
import { settlementStatement, transactionList } from '../../src/sandbox/portal-lists';
import { describeBrowser } from '../helpers/browser';
import { consoleInBrowser } from './console-in-browser';

const MALL = 'T0001234';
const DAY = '2026-11-20';
const at = (hour: number) => new Date(Date.UTC(2026, 10, 20, hour - 9));

const booked = (o: Partial<Omit<BookedTransaction, 'at'>> & { pgCno: string; shopOrderNo: string; amount: number; at: Date }): BookedTransaction => ({
  kind: 'payment', mallId: MALL, cancelPgCno: null, approvalNo: null, remainingAfter: null, method: '신용카드', ...o, at: o.at.toISOString(),
});

/** What the gateway made that day, as its portal lists it: the receiver missed one payment, saw another amount for one, and one it accepted is not here. */
const MADE = [
  booked({ pgCno: 'PG-A', shopOrderNo: 'ORD-MATCHED', amount: 15_000, at: at(9) }),
  booked({ pgCno: 'PG-B', shopOrderNo: 'ORD-DROPPED', amount: 8_000, at: at(10) }),
  booked({ pgCno: 'PG-E', shopOrderNo: 'ORD-AMOUNT', amount: 30_000, at: at(13) }),
];

describeBrowser('대사 in a browser, in Korean: the portal\'s files uploaded, the day matched, a difference settled, the day closed', () => {
  const session = consoleInBrowser();

  test('at 1440 and 1024 px, every difference with what to do, money as 원, nothing wider than the window', async () => {
    const { h, url, shots } = session();
    const approve = (shopOrderNo: string, pgCno: string, amount: number, when: Date) =>
      h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: String(amount), transactionDate: kstStamp(when) })).expect(200);
    await approve('ORD-MATCHED', 'PG-A', 15_000, at(9));
    await approve('ORD-FORGED', 'PG-D', 99_000, at(12));
    await approve('ORD-AMOUNT', 'PG-E', 3_000, at(13));
    const heading = { mallId: MALL, from: DAY, to: DAY };
    const list = await portalFile(transactionList(MADE), heading, 'xlsx');
    const statement = await portalFile(settlementStatement(MADE), heading, 'csv');

    const page = await session().koreanPage(await h.addOperator('kim', 'operator'), 1440);

    // From the menu (yesterday in Korea) to the day to settle, with no list yet.
    await page.getByRole('link', { name: '대사', exact: true }).click();
    await page.getByRole('heading', { name: /\d{4}-\d{2}-\d{2} 대사/ }).waitFor();
    await page.goto(`${url}/console/reconcile?day=${DAY}`);
    await page.getByRole('heading', { name: `${DAY} 대사` }).waitFor();
    await page.getByText('아직 이날을 포함하는 게이트웨이 거래내역이 없습니다').waitFor();

    for (const [name, bytes, type] of [['거래내역_20261120.xlsx', list, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], ['정산내역_20261120.csv', statement, 'text/csv']] as const) {
      await page.getByRole('link', { name: '관리자 화면 파일 올리기' }).click();
      await page.getByLabel('상점').fill(MALL);
      await page.getByLabel('파일').setInputFiles({ name, mimeType: type, buffer: bytes });
      await page.getByRole('button', { name: '미리보기' }).click();
      await page.getByRole('button', { name: '가져오기' }).click();
      await page.waitForURL(/\/console\/reconcile\?day=2026-11-20/, { timeout: 60_000 });
    }
    await page.getByText('정산내역을 가져왔습니다: 1일에 걸친 3건').waitFor();

    const differences = page.locator('table.differences tbody tr');
    await differences.first().waitFor();
    // The statement settles ORD-AMOUNT for the 30,000 the gateway made, as the list does: both disagree with the notified 3,000.
    expect((await page.locator('table.differences tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-kind')))).sort())
      .toEqual(['gateway_amount_differs', 'not_in_gateway_list', 'notification_missing', 'settlement_amount_differs']);
    await page.locator('[data-figure="listed"]').getByText('53,000원').waitFor();
    await page.locator('[data-figure="matched"]').getByText('15,000원').waitFor();
    // The statement's fees for the day, row by row: 315 + 168 + 630 won, VAT 32 + 17 + 63; paid out 53,000 - 1,113 - 112.
    await page.locator('table.payouts').getByText('51,775원').waitFor();
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1')).toBe(true);
      await page.screenshot({ path: join(shots, width === 1440 ? 'console-ko-reconcile.png' : 'console-ko-reconcile-1024.png'), fullPage: true });
    }

    // The missing payment's playbook names the portal's menu for a resend.
    const missing = page.locator('tr[data-kind="notification_missing"]');
    await missing.getByRole('link', { name: '대응 방법' }).click();
    await page.getByText('거래관리 → 노티조회').first().waitFor();
    await page.goBack();

    // Settle the forged one with a note, then close the day.
    const forged = page.locator('tr[data-kind="not_in_gateway_list"]');
    await forged.getByLabel('메모').fill('포털에 없는 거래: 배송 보류, 신고함');
    await forged.getByRole('button', { name: '해결' }).click();
    await page.goto(`${url}/console/reconcile?day=${DAY}`);
    await page.locator('tr[data-kind="not_in_gateway_list"]').getByText('kim').waitFor();
    await page.getByRole('button', { name: '이 날 마감' }).click();
    await page.getByRole('button', { name: `네, ${DAY} 마감` }).click();
    await page.goto(`${url}/console/reconcile?day=${DAY}`);
    await page.locator('[data-closed="true"]').getByText('kim').waitFor();
  }, 180_000);
});
