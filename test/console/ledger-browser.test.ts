import { join } from 'node:path';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification, changeNotification } from '../../src/simulator/notification-builders';
import { describeBrowser } from '../helpers/browser';
import { consoleInBrowser } from './console-in-browser';

const MALL = 'T0001234';

describeBrowser('the payment ledger in the console, in a browser', () => {
  /** docs/console-order.png and console-discrepancies.png are refreshed on request only (UPDATE_SCREENSHOTS=1), so a test run leaves the tree clean. */
  const session = consoleInBrowser();
  const shopOrderNo = `ORD-2026-${Date.now() % 100000}`;

  beforeAll(async () => {
    const { h } = session();
    // The shop expected 30000 KRW; the payment window came back with 3000 (tampered), then a partial cancel of 1000.
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/${shopOrderNo}/expectation`, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null }).expect(200);
    const minutesAgo = (n: number) => kstStamp(new Date(Date.now() - n * 60_000));
    await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: 'PG26112500001', amount: '3000', transactionDate: minutesAgo(5) })).expect(200);
    await h.ledgerApp.notify(changeNotification({ mallId: MALL, shopOrderNo, pgCno: 'PG26112500001', cancelPgCno: 'PG26112500002', cancelAmount: '1000', amount: '1000', cancelRemainAmount: '2000', cancelDate: minutesAgo(2) })).expect(200);
  });

  test('an operator finds the order by its number, sees its discrepancy and resolves it with a note', async () => {
    const { h, shots, signedInPage } = session();
    const page = await signedInPage(await h.addOperator('park', 'operator'), 1280);
    await page.getByRole('link', { name: /open discrepancies/ }).waitFor();

    await page.getByRole('link', { name: /open discrepancies/ }).click();
    await page.getByRole('heading', { name: 'Open (1)' }).waitFor();
    await page.screenshot({ path: join(shots, 'console-discrepancies.png'), fullPage: true });

    await page.locator('header nav').getByRole('link', { name: 'Orders' }).click();
    await page.getByLabel('Search').fill(shopOrderNo);
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('heading', { name: shopOrderNo }).waitFor();
    await page.getByText('discrepancy opened: amount_mismatch').waitFor();
    expect(await page.getByText('expected: ₩30,000, notified: ₩3,000').count()).toBe(1);
    await page.screenshot({ path: join(shots, 'console-order.png'), fullPage: true });

    await page.getByLabel('Note').fill('customer was charged 3000 KRW; the order was cancelled and refunded');
    await page.getByRole('button', { name: 'Resolve' }).click();
    await page.getByRole('status').getByText('Resolved').waitFor();
    await page.getByText('discrepancy resolved: amount_mismatch').waitFor();
    expect(await page.getByRole('button', { name: 'Resolve' }).count()).toBe(0);

    const record = (await h.ledgerApp.api.get(`/v1/orders/${MALL}/${shopOrderNo}`).expect(200)).body;
    expect(record.discrepancies[0]).toMatchObject({ kind: 'amount_mismatch', resolvedBy: 'park', note: 'customer was charged 3000 KRW; the order was cancelled and refunded' });
    await page.locator('header nav').getByRole('link', { name: 'Discrepancies' }).click();
    await page.getByRole('heading', { name: 'Open (0)' }).waitFor();
    await page.close();
  });
});
