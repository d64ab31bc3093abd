import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';

/** Debian's chromium: `npx playwright install` cannot download a browser on these machines. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The flags the machine's closed network needs: without the background-networking ones
 * Chromium keeps dialling Google's hosts and the refused connections slow every test.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Browser suites run where Chromium is installed (`.ci/run` installs it) and skip elsewhere, saying why. */
export function describeBrowser(name: string, body: () => void): void {
  if (!existsSync(CHROMIUM_PATH)) {
    console.warn(`skipping "${name}": no browser at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
    describe.skip(name, body);
    return;
  }
  describe(name, body);
}

export interface TestBrowser {
  browser: Browser;
  context: BrowserContext;
  close(): Promise<void>;
}

/** A headless Chromium; Playwright gives it a fresh temporary profile and removes it on close. */
export async function launchBrowser(): Promise<TestBrowser> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext();
  return {
    browser,
    context,
    async close() {
      await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
    },
  };
}

/**
 * Stops a listener a browser has used. `server.close()` waits for every connection to end, and
 * closes only those idle at that instant: one the page was still using (a favicon, a subresource,
 * a preconnect) then stays open until Node's keep-alive timer (5 s) or the browser drops it, a
 * wait on the clock that grows with the machine's load. Its connections are closed instead.
 */
export async function stopListening(server: Server): Promise<void> {
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeAllConnections();
  await closed;
}

/** Serves `app` on a free loopback port for a browser to open; stop it with `stopListening`. */
export async function listenForBrowser(app: { listen(port: number, host: string): Server }): Promise<{ server: Server; url: string }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
