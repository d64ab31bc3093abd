import { Writable } from 'node:stream';
import request from 'supertest';
import { createAdminApp } from '../../src/admin/admin-app';
import type { ConsoleDeps } from '../../src/console/console-deps';
import { createSessions } from '../../src/console/sessions';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import type { Publisher } from '../../src/publishers/publisher';
import { startRelay } from '../../src/relay/relay';
import { startTestReceiver, type TestReceiver } from '../helpers/test-receiver';

export const ADMIN_TOKEN = 'console-test-token-0123456789';
/** supertest's ephemeral port is unknown in advance, so requests name this host and, on POST, this origin. */
export const HOST = 'admin.test';
export const ORIGIN = `http://${HOST}`;

export interface ConsoleHarness {
  receiver: TestReceiver;
  admin: ReturnType<typeof createAdminApp>;
  consoleLogs: () => Array<Record<string, unknown>>;
  /** A signed-in browser-like agent (it keeps the session cookie) and its CSRF token. */
  signIn: (name?: string) => Promise<{ agent: request.Agent; csrf: string }>;
  close: () => Promise<void>;
}

/**
 * The receiver (real SQLite file, relay to a file) and its admin listener's app with the console.
 * `publisher`: relay to that one instead (a queue that is down, say).
 */
export async function startConsoleHarness(
  env: Record<string, string> = {},
  options: { now?: () => Date; relay?: boolean; publisher?: Publisher } = {},
): Promise<ConsoleHarness> {
  const receiver = await startTestReceiver(env, { relay: options.publisher ? false : options.relay ?? true });
  const relay = options.publisher
    ? startRelay({ store: receiver.store, publisher: options.publisher, logger: createLogger({ level: 'error', silent: true }), metrics: receiver.metrics, pollIntervalMs: 50 })
    : receiver.relay;
  const publisher = options.publisher ?? receiver.publisher;
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    stream: new Writable({ write: (chunk, _enc, done) => { lines.push(...String(chunk).split('\n').filter(Boolean)); done(); } }),
  });
  const now = options.now ?? (() => new Date());
  const consoleDeps: ConsoleDeps = {
    store: receiver.store,
    config: receiver.config,
    logger,
    adminToken: ADMIN_TOKEN,
    sessions: createSessions({ now: () => now().getTime() }),
    now,
  };
  const admin = createAdminApp({
    store: receiver.store,
    publisher: publisher ?? { kind: 'none', publish: async () => undefined, status: () => ({ connected: false, detail: 'no relay in this test' }), close: async () => undefined },
    relay,
    metrics: createMetrics(),
    isShuttingDown: () => false,
    console: consoleDeps,
  });
  return {
    receiver,
    admin,
    consoleLogs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    async signIn(name = 'kim') {
      const agent = request.agent(admin);
      const answer = await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token: ADMIN_TOKEN, name });
      if (answer.status !== 303) throw new Error(`sign-in failed: ${answer.status}`);
      const page = await agent.get('/console/events').set('Host', HOST);
      return { agent, csrf: csrfIn(page.text) };
    },
    async close() {
      if (options.publisher) {
        await relay?.stop(0);
        await options.publisher.close();
      }
      await receiver.close();
    },
  };
}

export function csrfIn(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('no CSRF token on the page');
  return match[1]!;
}
