import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, listenForBrowser, stopListening, type TestBrowser } from '../helpers/browser';
import { startLedgerConsole, type LedgerConsole } from './ledger-console-harness';

export interface ConsoleInBrowser {
  h: LedgerConsole;
  browser: TestBrowser;
  url: string;
  /** Where screenshots go: docs/ with UPDATE_SCREENSHOTS=1 (so a test run leaves the tree clean), else a temporary folder. */
  shots: string;
  /** Signs `token` in on a new page of `width` px and switches the console to Korean. */
  koreanPage(token: string, width: number): Promise<Page>;
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
    running = {
      h, browser, url: listening.url, shots,
      async koreanPage(token, width) {
        const page = await browser.context.newPage();
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${listening.url}/console`);
        await page.getByLabel('Token').fill(token);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Overview' }).waitFor();
        await page.getByRole('button', { name: '한국어' }).click();
        return page;
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
