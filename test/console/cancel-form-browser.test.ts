import type { Server } from 'node:http';
import { startCancelService, walletPayment, type CancelService } from '../commands/cancel-service';
import { PATHS, startFakeGateway, type FakeGateway } from '../commands/fake-gateway';
import { describeBrowser, launchBrowser, listenForBrowser, stopListening, type TestBrowser } from '../helpers/browser';
import { ADMIN_TOKEN } from './console-harness';

describeBrowser('the order page\'s Cancel form in a browser', () => {
  let gateway: FakeGateway;
  let service: CancelService;
  let browser: TestBrowser;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    service = await startCancelService(gateway);
    ({ server, url } = await listenForBrowser(service.admin));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (server) await stopListening(server);
    await service?.close();
    await gateway?.close();
  });

  test('typing an amount chooses a partial cancel of it; choosing "all that is left" empties the amount', async () => {
    const { path } = await walletPayment(service, 10_000);
    const page = await browser.context.newPage();
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'en' });
    await page.goto(`${url}/console`);
    await page.getByLabel('Token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.goto(`${url}${path}`);

    const full = page.locator('form.cancel-form input[name="type"][value="full"]');
    const partial = page.locator('form.cancel-form input[name="type"][value="partial"]');
    const amount = page.locator('form.cancel-form input[name="amount"]');
    expect(await full.isChecked()).toBe(true);
    // At 1024 px each radio sits on the line of its label's words, never above them.
    await page.setViewportSize({ width: 1024, height: 768 });
    for (const radio of [full, partial]) {
      const [box, label] = await Promise.all([radio.boundingBox(), radio.locator('xpath=..').boundingBox()]);
      expect(box!.y + box!.height / 2).toBeGreaterThan(label!.y + label!.height / 4);
      expect(box!.y + box!.height / 2).toBeLessThan(label!.y + (label!.height * 3) / 4);
    }
    await amount.pressSequentially('3,000');
    expect(await partial.isChecked()).toBe(true);
    expect(await full.isChecked()).toBe(false);

    await full.check();
    expect(await amount.inputValue()).toBe('');
    await amount.fill('2,500');
    expect(await partial.isChecked()).toBe(true);

    await page.locator('form.cancel-form button[type="submit"]').click();
    await page.getByRole('heading', { name: 'Cancel a payment' }).waitFor();
    expect(await page.locator('.confirm-cancel .figure').innerText()).toContain('Cancel ₩2,500 of payment');
    expect(await page.locator('.confirm-cancel input[name="type"]').inputValue()).toBe('partial');
    expect(gateway.calls(PATHS.revise)).toHaveLength(0);
    await page.close();
  });
});
