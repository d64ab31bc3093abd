import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createAdminApp } from '../../src/admin/admin-app';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { approvalNotification, depositNotification, refundNotification } from '../../src/simulator/notification-builders';
import { runRetention } from '../../src/retention/run-retention';
import { describeBrowser, launchBrowser, stopListening, type TestBrowser, listenForBrowser } from '../helpers/browser';
import { eventually } from '../helpers/eventually';
import { inboxEntry } from '../helpers/stored-events';
import { ADMIN_TOKEN, consoleSessions, startConsoleHarness, type ConsoleHarness } from './console-harness';

// The README's screenshots are refreshed on request (UPDATE_SCREENSHOTS=1), so a test run never dirties the checkout.
const DOCS = process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs') : join(tmpdir(), 'console-screenshots');
const HOUR_MS = 60 * 60 * 1000;

async function signIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/console`);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}

describeBrowser('operator console in a browser', () => {
  let h: ConsoleHarness;
  let browser: TestBrowser;
  let admin: { server: Server; url: string };
  let page: Page;
  const dialogs: string[] = [];
  const order = 'ORDER-20261121-0042';

  beforeAll(async () => {
    h = await startConsoleHarness({ MALL_IDS: 'T0001234' });
    // A day of traffic, so the overview's chart has something to show.
    const now = Date.now();
    for (let i = 0; i < 60; i++) {
      const notiType = (['10', '10', '10', '20', '30', '50'] as const)[i % 6];
      await h.receiver.store.record(inboxEntry({ notiType, pgCno: `PGSEED${String(i).padStart(14, '0')}`, shopOrderNo: `SEED-${i}`, receivedAt: new Date(now - ((i * 7) % 23) * HOUR_MS - i * 1000).toISOString() }));
    }
    await h.receiver.postJson(approvalNotification({ shopOrderNo: order, amount: '39000' })).expect(200);
    await h.receiver.postJson(depositNotification()).expect(200);
    await h.receiver.postJson(refundNotification()).expect(200);
    await h.receiver.forwarded(63);
    await eventually(async () => (await h.receiver.store.eventCounts()).delivered === 63, 10_000, 'all 63 marked delivered');
    await runRetention(h.receiver.store, { days: 90, now: new Date() });
    admin = await listenForBrowser(h.admin);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    mkdirSync(DOCS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    if (admin) await stopListening(admin.server);
    await h?.close();
  });

  test('an operator signs in and sees the overview with its chart', async () => {
    await signIn(page, admin.url, await h.addOperator('support-kim', 'operator'));
    await page.locator('#activity-chart canvas').waitFor();
    await page.screenshot({ path: join(DOCS, 'console-overview.png'), fullPage: true });
    expect(await page.locator('.tile', { hasText: 'delivered' }).innerText()).toContain('63');
    // Why a backlog would grow is on the first screen: the publisher's state, as /readyz has it.
    expect(await page.locator('section.card', { has: page.getByRole('heading', { name: 'Publisher' }) }).innerText()).toMatch(/file publisher: connected\b.*last delivery \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} KST/s);
  });

  test('searches by order number, opens the event, requeues it and sees it forwarded again', async () => {
    await page.locator('header nav').getByRole('link', { name: 'Events' }).click();
    await page.getByLabel('Search').fill(order);
    await page.getByRole('button', { name: 'Apply' }).click();
    const rows = page.locator('table tbody tr');
    expect(await rows.count()).toBe(1);
    await rows.first().locator('a').click();
    await page.getByRole('heading', { name: 'Raw body as received' }).waitFor();
    expect(await page.locator('table.facts').first().innerText()).toContain(order);
    expect(await page.locator('table.attempts tbody tr').first().innerText()).toMatch(/^1\s+\S+ \S+ KST\s+delivered/);
    await page.screenshot({ path: join(DOCS, 'console-event.png'), fullPage: true });

    const eventId = (await page.locator('h1').innerText()).trim();
    const before = (await h.receiver.forwarded()).filter((event) => event.id === eventId).length;
    await page.getByRole('button', { name: 'Requeue', exact: true }).click();
    await page.getByRole('status').getByText('Requeued').waitFor();
    // The relay may deliver it again before the page loads, so the requeue need not be the last row.
    expect(await page.locator('table.attempts tbody tr', { hasText: 'requeued by support-kim' }).count()).toBe(1);
    await eventually(async () => (await h.receiver.forwarded()).filter((event) => event.id === eventId).length === before + 1, 10_000, 'the requeued event forwarded again');
    expect((await h.receiver.store.listAudit(1))[0]).toMatchObject({ action: 'requeued', subject: eventId, actor: expect.stringContaining('support-kim') });
  });

  test('reads a conflict field by field', async () => {
    const original = approvalNotification({ shopOrderNo: 'ORDER-CONFLICT' });
    await h.receiver.postJson(original).expect(200);
    await h.receiver.postJson({ ...original, amount: '1000' }).expect(200);
    await page.locator('header nav').getByRole('link', { name: 'Conflicts' }).click();
    await page.locator('table tbody tr a').first().click();
    const differs = page.locator('tr.differs');
    expect(await differs.count()).toBe(1);
    expect(await differs.innerText()).toMatch(/amount\s+differs\s+\d+\s+1000/);
  });

  test('markup in a notification is shown as text and runs nothing', async () => {
    await h.receiver.postJson(approvalNotification({ shopOrderNo: '<script>window.__pwned=1</script>', resMsg: '<img src=x onerror="window.__pwned=2">' })).expect(200);
    await page.goto(`${admin.url}/console/events`);
    await page.getByText('<script>window.__pwned=1</script>').first().waitFor();
    await page.locator('table tbody tr a').first().click();
    await page.getByRole('heading', { name: 'Raw body as received' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('<img src=x onerror="window.__pwned=2">');
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('main img').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  test('reprocesses a rejection after the configuration is fixed', async () => {
    const newMall = approvalNotification({ mallId: 'T0009999', shopOrderNo: 'ORDER-NEW-MALL' });
    await h.receiver.postJson(newMall).expect(400);
    await page.locator('header nav').getByRole('link', { name: 'Rejections' }).click();
    await page.locator('table tbody tr a').first().click();
    await page.getByRole('button', { name: 'Reprocess' }).click();
    expect(await page.getByRole('alert').innerText()).toContain('MALL_IDS');

    // The operator adds the mall to MALL_IDS and restarts the receiver (a new admin app: the session is in the database and holds).
    const fixed = createAdminApp({
      store: h.receiver.store, publisher: h.receiver.publisher!, relay: h.receiver.relay, metrics: createMetrics(), isShuttingDown: () => false,
      console: {
        store: h.receiver.store, config: { ...h.receiver.config, MALL_IDS: ['T0001234', 'T0009999'] }, logger: createLogger({ level: 'error', silent: true }),
        adminToken: ADMIN_TOKEN, sessions: consoleSessions(h.receiver.store), now: () => new Date(),
      },
    });
    const restarted = await listenForBrowser(fixed);
    try {
      await page.goto(`${restarted.url}/console`);
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      await page.locator('header nav').getByRole('link', { name: 'Rejections' }).click();
      await page.locator('table tbody tr a').first().click();
      await page.getByRole('button', { name: 'Reprocess' }).click();
      await page.getByRole('status').getByText('Reprocessed').waitFor();
      expect(await page.locator('table.facts').first().innerText()).toContain('ORDER-NEW-MALL');
      await eventually(async () => (await h.receiver.forwarded()).some((event) => event.shopOrderNo === 'ORDER-NEW-MALL'), 10_000, 'the reprocessed event forwarded');
    } finally {
      await stopListening(restarted.server);
    }
  });
});
