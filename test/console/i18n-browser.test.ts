import type { Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { en } from '../../src/console/i18n/en';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification, changeNotification, transferFailedNotification } from '../../src/simulator/notification-builders';
import { describeBrowser, launchBrowser, type TestBrowser, listenForBrowser } from '../helpers/browser';
import { startLedgerConsole, type LedgerConsole } from './ledger-console-harness';

const MALL = 'T0001234';
/** docs/console-ko-*.png are refreshed on request only (UPDATE_SCREENSHOTS=1), so a test run leaves the tree clean. */
const DOCUMENTED = new Set(['console-ko-sign-in', 'console-ko-overview', 'console-ko-orders', 'console-ko-order', 'console-ko-discrepancies', 'console-ko-playbooks', 'console-ko-event', 'console-orders', 'console-order-usd', 'console-playbooks']);
/** Every page is photographed into a temporary folder; into docs/, only the ones docs/console.md shows. */
const shoot = (page: Page, dir: string, name: string) =>
  (process.env.UPDATE_SCREENSHOTS && !DOCUMENTED.has(name) ? Promise.resolve() : page.screenshot({ path: join(dir, `${name}.png`), fullPage: true }).then(() => undefined));
const shotsDir = () => (process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs') : mkdtempSync(join(tmpdir(), 'console-i18n-shots-')));

/**
 * What a Korean page may show in Latin letters: codes (statuses, kinds, field names, event types,
 * ids), the gateway's own text, what people typed (names, notes), and the switch's "English".
 * Everything else in Latin letters is an English label that escaped the catalogue.
 */
const LATIN_ALLOWED_IN = 'code, pre, .mono, .code, .code-tag, .gateway-text, .data, [lang="en"], [translate="no"], script, style';

interface PageFindings {
  /** Catalogue keys printed as text (a message the catalogue lacks). */
  keys: string[];
  /** Latin words outside codes and gateway text, with where they are. */
  english: string[];
}

const PAGE_WORDS = readFileSync(join(__dirname, 'browser-scripts', 'page-words.js'), 'utf8');

/** Runs browser-scripts/page-words.js in the page. */
function findingsIn(page: Page, keys: string[], dataWords: string[]): Promise<PageFindings> {
  const args = JSON.stringify({ keys, allowedIn: LATIN_ALLOWED_IN, dataWords });
  return page.evaluate(`(${PAGE_WORDS.trim().replace(/;$/, '')})(${args})`) as Promise<PageFindings>;
}

describeBrowser('every console page in Korean and in English, in a browser', () => {
  // Nineteen pages a language, each judged word by word and photographed, on a busy machine.
  jest.setTimeout(180_000);
  let h: LedgerConsole;
  let browser: TestBrowser;
  let server: Server;
  let url: string;
  let shots: string;
  let adminToken: string;
  const stamp = Date.now() % 100000;
  const krwOrder = `ORD-KRW-${stamp}`;
  const usdOrder = `ORD-USD-${stamp}`;
  const refundOrder = `ORD-REFUND-${stamp}`;
  const pages: Array<{ name: string; path: () => string }> = [];
  let eventId = '';
  let ledgerEventId = '';
  let rejectionId = 0;
  let conflictId = 0;

  beforeAll(async () => {
    shots = shotsDir();
    h = await startLedgerConsole();
    const minutesAgo = (n: number) => kstStamp(new Date(Date.now() - n * 60_000));
    // A KRW order paid 3,000 of the 30,000 expected (an amount mismatch), then partly cancelled.
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/${krwOrder}/expectation`, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null }).expect(200);
    const krwPayment = approvalNotification({ mallId: MALL, shopOrderNo: krwOrder, pgCno: `PGK${stamp}`, amount: '3000', transactionDate: minutesAgo(9) });
    await h.ledgerApp.notify(krwPayment).expect(200);
    await h.ledgerApp.notify(changeNotification({ mallId: MALL, shopOrderNo: krwOrder, pgCno: `PGK${stamp}`, cancelPgCno: `PGKC${stamp}`, cancelAmount: '1000', amount: '1000', cancelRemainAmount: '2000', cancelDate: minutesAgo(5) })).expect(200);
    // The same approval again with another message: a conflict.
    await h.ledgerApp.notify({ ...krwPayment, statusMessage: '승인 정정' }).expect(200);
    // A USD order paid in full, and a KRW order without an expectation whose refund transfer failed.
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/${usdOrder}/expectation`, { amount: 1203, currency: 'USD', method: 'card', expiresAt: null }).expect(200);
    await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo: usdOrder, pgCno: `PGU${stamp}`, amount: '1203', transactionDate: minutesAgo(4) })).expect(200);
    await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo: refundOrder, pgCno: `PGR${stamp}`, amount: '12000', transactionDate: minutesAgo(3) })).expect(200);
    await h.ledgerApp.notify(transferFailedNotification({ mallId: MALL, shopOrderNo: refundOrder, pgCno: `PGR${stamp}`, amount: '12000', refundDate: minutesAgo(1) })).expect(200);
    // A body the receiver refuses: a rejection.
    await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo: `ORD-BAD-${stamp}`, amount: 'twelve' })).expect(400);
    const { store } = h.ledgerApp.stores;
    eventId = (await store.searchEvents({ query: `PGU${stamp}`, type: 'payment.approved', limit: 1, offset: 0 }))[0]!.eventId;
    ledgerEventId = (await store.searchEvents({ type: 'order.status_changed', limit: 1, offset: 0 }))[0]!.eventId;
    rejectionId = (await store.listRejections(1))[0]!.id;
    conflictId = (await store.listConflicts(1))[0]!.id;
    // One discrepancy resolved, so the resolved list shows who and why.
    const open = (await h.ledgerApp.api.get('/v1/discrepancies?open=true').expect(200)).body.discrepancies as Array<{ id: string; kind: string }>;
    await h.ledgerApp.api.post(`/v1/discrepancies/${open.find((d) => d.kind === 'refund_transfer_failed')!.id}/resolve`, { note: '환불 계좌를 받아 다시 환불함', by: 'kim' }).expect(200);
    adminToken = await h.addOperator('lee', 'admin');

    pages.push(
      { name: 'overview', path: () => '/console' },
      { name: 'events', path: () => '/console/events' },
      { name: 'event', path: () => `/console/events/${eventId}` },
      { name: 'ledger-event', path: () => `/console/events/${ledgerEventId}` },
      { name: 'rejections', path: () => '/console/rejections' },
      { name: 'rejection', path: () => `/console/rejections/${rejectionId}` },
      { name: 'conflicts', path: () => '/console/conflicts' },
      { name: 'conflict', path: () => `/console/conflicts/${conflictId}` },
      { name: 'orders', path: () => '/console/orders' },
      { name: 'order', path: () => `/console/orders/${MALL}/${krwOrder}` },
      { name: 'order-usd', path: () => `/console/orders/${MALL}/${usdOrder}` },
      { name: 'order-refund', path: () => `/console/orders/${MALL}/${refundOrder}` },
      { name: 'discrepancies', path: () => '/console/discrepancies' },
      { name: 'playbooks', path: () => '/console/playbooks' },
      { name: 'commands', path: () => '/console/commands' },
      { name: 'audit', path: () => '/console/audit' },
      { name: 'audit-filtered', path: () => '/console/audit?operator=nobody&action=none&from=2026-01-01&to=2026-01-02' },
      { name: 'operators', path: () => '/console/operators' },
      { name: 'not-found', path: () => `/console/orders/${MALL}/ORD-NOPE` },
    );
    ({ server, url } = await listenForBrowser(h.admin));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await h?.close();
    if (!process.env.UPDATE_SCREENSHOTS && shots) rmSync(shots, { recursive: true, force: true });
  });

  const KEYS = Object.keys(en);
  /** What the test itself typed or the data holds in Latin letters: operators' names, the publisher's kind. */
  const DATA_WORDS = ['lee', 'kim', 'admin', 'none', 'development', 'production'];

  async function signedIn(locale: 'ko-KR' | 'en-US'): Promise<Page> {
    const context = await browser.browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${url}/console`);
    expect(await findingsIn(page, KEYS, DATA_WORDS)).toEqual(locale === 'ko-KR' ? { keys: [], english: [] } : expect.objectContaining({ keys: [] }));
    if (locale === 'ko-KR') await shoot(page, shots, 'console-ko-sign-in');
    await page.locator('#token').fill(adminToken);
    await page.locator('main button[type="submit"]').click();
    await page.locator('h1').first().waitFor();
    return page;
  }

  test('a browser that prefers Korean gets every page in Korean: no catalogue key and no English label, apart from codes and the gateway\'s text', async () => {
    const page = await signedIn('ko-KR');
    expect(await page.locator('html').getAttribute('lang')).toBe('ko');
    for (const { name, path } of pages) {
      const answer = await page.goto(`${url}${path()}`);
      if (!(await page.locator('h1').count())) throw new Error(`${name}: ${answer?.status()} ${(await page.content()).slice(0, 600)}`);
      if (name === 'overview') await page.locator('#activity-chart .uplot, #activity-chart:has-text("차트")').first().waitFor();
      expect({ name, ...(await findingsIn(page, KEYS, DATA_WORDS)) }).toEqual({ name, keys: [], english: [] });
      await shoot(page, shots, `console-ko-${name}`);
    }
    // Money as Korean readers write won, and dollars as dollars.
    await page.goto(`${url}/console/orders`);
    const krwRow = await page.locator('tr', { hasText: krwOrder }).innerText();
    expect(krwRow).toContain('30,000원');
    expect(krwRow).toContain('불일치');
    expect(await page.locator('tr', { hasText: usdOrder }).innerText()).toContain('US$12.03');
    await page.goto(`${url}/console/discrepancies`);
    expect(await page.locator('main').innerText()).toContain('금액 불일치');
    await page.context().close();
  });

  test('a browser that prefers English gets every page in English, with no catalogue key', async () => {
    const page = await signedIn('en-US');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    for (const { name, path } of pages) {
      await page.goto(`${url}${path()}`);
      await page.locator('h1').first().waitFor();
      expect({ name, keys: (await findingsIn(page, KEYS, DATA_WORDS)).keys }).toEqual({ name, keys: [] });
      await shoot(page, shots, `console-${name}`);
    }
    await page.goto(`${url}/console/orders`);
    expect(await page.locator('tr', { hasText: krwOrder }).innerText()).toContain('₩30,000');
    expect(await page.locator('tr', { hasText: usdOrder }).innerText()).toContain('$12.03');
    await page.context().close();
  });

  test('the header switch changes the language, and the session keeps it across pages and a new browser on the same session', async () => {
    const page = await signedIn('en-US');
    await page.goto(`${url}/console/orders`);
    await page.locator('header').getByRole('button', { name: '한국어' }).click();
    await page.getByRole('heading', { name: '주문' }).waitFor();
    expect(page.url()).toBe(`${url}/console/orders`);
    await page.locator('header nav').getByRole('link', { name: '불일치' }).click();
    await page.getByRole('heading', { name: '불일치' }).first().waitFor();
    // Stored with the session: another page of the same English-preferring browser stays Korean.
    const cookies = await page.context().cookies();
    const other = await browser.browser.newContext({ locale: 'en-US' });
    await other.addCookies(cookies);
    const second = await other.newPage();
    await second.goto(`${url}/console`);
    await second.getByRole('heading', { name: '개요' }).waitFor();
    await second.locator('header').getByRole('button', { name: 'English' }).click();
    await second.getByRole('heading', { name: 'Overview' }).waitFor();
    await other.close();
    await page.context().close();
  });

  test('the sign-in page follows the browser, and its switch travels in the URL into the session', async () => {
    const context = await browser.browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${url}/console/orders`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByRole('link', { name: '한국어' }).click();
    await page.getByRole('button', { name: '로그인' }).waitFor();
    await page.getByLabel('토큰').fill(adminToken);
    await page.getByRole('button', { name: '로그인' }).click();
    await page.getByRole('heading', { name: '주문' }).waitFor();
    await context.close();
  });
});
