import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser, listenForBrowser, stopListening, type TestBrowser } from '../helpers/browser';
import { startLedgerConsole, type LedgerConsole } from './ledger-console-harness';

export interface ConsoleInBrowser {
  h: LedgerConsole;
  browser: TestBrowser;
  url: string;
  /** Where screenshots go: docs/ with UPDATE_SCREENSHOTS=1 (so a test run leaves the tree clean), else a temporary folder. */
  shots: string;
  /** Signs `token` in on a new page of `width` px, in English, and waits for the overview. */
  signedInPage(token: string, width: number): Promise<Page>;
  /** Signs `token` in on a new page of `width` px and switches the console to Korean. */
  koreanPage(token: string, width: number): Promise<Page>;
  /**
   * Signs `token` in on a page 1280 px wide of a context of its own whose browser asks for
   * ko-KR, so the console is Korean from the browser's language, not from the switch.
   */
  koreanBrowserPage(token: string, options?: BrowserContextOptions): Promise<{ context: BrowserContext; page: Page }>;
}

/**
 * The console with the payment ledger on a real socket and a Chromium beside it, for one suite:
 * started before its tests, everything it started stopped after them.
 */
export function consoleInBrowser(): () => ConsoleInBrowser {
  let running: ConsoleInBrowser | undefined;
  let server: Server | undefined;
  beforeAll(async () => {
    const shots = process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs') : mkdtempSync(join(tmpdir(), 'console-shots-'));
    const h = await startLedgerConsole();
    const listening = await listenForBrowser(h.admin);
    server = listening.server;
    const browser = await launchBrowser();
    const signedInPage = async (token: string, width: number) => {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${listening.url}/console`);
      await page.getByLabel('Token').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      return page;
    };
    running = {
      h, browser, url: listening.url, shots, signedInPage,
      async koreanPage(token, width) {
        const page = await signedInPage(token, width);
        await page.getByRole('button', { name: '한국어' }).click();
        return page;
      },
      async koreanBrowserPage(token, options = {}) {
        const context = await browser.browser.newContext({ ...options, locale: 'ko-KR' });
        const page = await context.newPage();
        await page.setViewportSize({ width: 1280, height: 1000 });
        await page.goto(`${listening.url}/console`);
        await page.getByLabel('토큰').fill(token);
        await page.getByRole('button', { name: '로그인' }).click();
        return { context, page };
      },
    };
  });
  afterAll(async () => {
    await running?.browser.close();
    if (server) await stopListening(server);
    await running?.h.close();
    if (!process.env.UPDATE_SCREENSHOTS && running) rmSync(running.shots, { recursive: true, force: true });
  });
  return () => {
    if (!running) throw new Error('the console in a browser is started in beforeAll');
    return running;
  };
}
