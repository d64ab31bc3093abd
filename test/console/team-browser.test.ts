import type { Server } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { describeBrowser, launchBrowser, stopListening, type TestBrowser, listenForBrowser } from '../helpers/browser';
import { eventually } from '../helpers/eventually';
import { startConsoleHarness, type ConsoleHarness } from './console-harness';

async function signIn(context: BrowserContext, url: string, token: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${url}/console`);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  return page;
}

describeBrowser('the console for a team in a browser: each role', () => {
  let h: ConsoleHarness;
  let browser: TestBrowser;
  let server: Server;
  let url: string;
  let eventId: string;
  const contexts: BrowserContext[] = [];
  const newContext = async () => {
    const context = await browser.browser.newContext();
    contexts.push(context);
    return context;
  };

  beforeAll(async () => {
    h = await startConsoleHarness({ MALL_IDS: 'T0001234' });
    await h.receiver.postJson(approvalNotification({ shopOrderNo: 'ORDER-TEAM' })).expect(200);
    await h.receiver.postJson(approvalNotification({ mallId: 'T0009999', shopOrderNo: 'ORDER-TEAM-REJECTED' })).expect(400);
    await h.receiver.forwarded(1);
    eventId = (await h.receiver.store.searchEvents({ query: 'ORDER-TEAM', limit: 1, offset: 0 }))[0]!.eventId;
    ({ server, url } = await listenForBrowser(h.admin));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    if (server) await stopListening(server);
    await h?.close();
  });

  test('a viewer reads the events, the event and the rejection and sees no action button and no Operators link', async () => {
    const page = await signIn(await newContext(), url, await h.addOperator('vera', 'viewer'));
    expect(await page.locator('header nav').getByRole('link', { name: 'Operators' }).count()).toBe(0);
    await page.locator('header nav').getByRole('link', { name: 'Events' }).click();
    await page.getByLabel('Search').fill('ORDER-TEAM');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator('table tbody tr a').first().click();
    await page.getByRole('heading', { name: 'Raw body as received' }).waitFor();
    expect(await page.locator('main form[method="post"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Requeue', exact: true }).count()).toBe(0);
    await page.locator('header nav').getByRole('link', { name: 'Rejections' }).click();
    await page.locator('table tbody tr a').first().click();
    await page.getByRole('heading', { name: /Rejection/ }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Reprocess' }).count()).toBe(0);
    // Only the sign-out form in the header.
    expect(await page.locator('form[method="post"]').count()).toBe(1);
  });

  test('an operator requeues an event from its page and the audit names them', async () => {
    const page = await signIn(await newContext(), url, await h.addOperator('omar', 'operator'));
    expect(await page.locator('header nav').getByRole('link', { name: 'Operators' }).count()).toBe(0);
    await page.goto(`${url}/console/events/${encodeURIComponent(eventId)}`);
    await page.getByRole('button', { name: 'Requeue', exact: true }).click();
    await page.getByRole('status').getByText('Requeued').waitFor();
    expect((await h.receiver.store.listAudit(1))[0]).toMatchObject({ action: 'requeued', subject: eventId, actor: expect.stringMatching(/^omar \(/) });
    await eventually(async () => (await h.receiver.forwarded()).filter((event) => event.id === eventId).length === 2, 10_000, 'the requeued event forwarded again');
  });

  test('an admin adds an operator on the Operators page, the new token signs them in, and removing them signs them out', async () => {
    const admin = await signIn(await newContext(), url, await h.addOperator('ada', 'admin'));
    await admin.locator('header nav').getByRole('link', { name: 'Operators' }).click();
    await admin.getByLabel('Name').fill('nina@shop.example');
    await admin.getByLabel('Role').selectOption('operator');
    await admin.getByRole('button', { name: 'Add operator' }).click();
    const token = (await admin.locator('#new-token').innerText()).trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const nina = await signIn(await newContext(), url, token);
    expect(await nina.locator('header .who').innerText()).toContain('nina@shop.example');

    await admin.goto(`${url}/console/operators`);
    await admin.locator('tr', { hasText: 'nina@shop.example' }).getByRole('button', { name: 'Remove' }).click();
    await admin.getByRole('status').getByText('Removed the operator').waitFor();
    expect(await admin.locator('table.operators').innerText()).not.toContain('nina@shop.example');

    await nina.goto(`${url}/console/events`);
    await nina.getByLabel('Token').waitFor();
    expect(nina.url()).toContain('/console/sign-in');
  });
});
