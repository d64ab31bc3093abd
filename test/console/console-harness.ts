import { Writable } from 'node:stream';
import request from 'supertest';
import { createAdminApp } from '../../src/admin/admin-app';
import { loadConfig } from '../../src/config/env';
import type { ConsoleDeps } from '../../src/console/console-deps';
import { createSessions, type Sessions } from '../../src/console/sessions';
import { newSecret, secretHash } from '../../src/store/operator-credentials';
import type { OperatorRole, Store } from '../../src/store/store';
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
  consoleDeps: ConsoleDeps;
  /** Adds an operator (once per name) and returns their token. */
  addOperator: (name: string, role?: OperatorRole) => Promise<string>;
  /**
   * A signed-in browser-like agent (it keeps the session cookie) and its CSRF token: the operator
   * `name` (added with `role` the first time), or the bootstrap admin for `admin`.
   */
  signIn: (name?: string, role?: OperatorRole) => Promise<{ agent: request.Agent; csrf: string; cookie: string }>;
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
    sessions: consoleSessions(receiver.store, ADMIN_TOKEN, () => now().getTime(), receiver.config.ADMIN_SESSION_IDLE_MINUTES),
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
  const tokens = new Map<string, string>();
  const addOperator = async (name: string, role: OperatorRole = 'operator') => {
    const known = tokens.get(name);
    if (known) return known;
    const token = newSecret();
    await receiver.store.addOperator({ name, role, tokenHash: secretHash(token), createdAt: now().toISOString() });
    tokens.set(name, token);
    return token;
  };
  return {
    receiver,
    admin,
    consoleDeps,
    addOperator,
    consoleLogs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    async signIn(name = 'kim', role: OperatorRole = 'operator') {
      const agent = request.agent(admin);
      const token = name === 'admin' ? ADMIN_TOKEN : await addOperator(name, role);
      const answer = await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token });
      if (answer.status !== 303) throw new Error(`sign-in failed: ${answer.status}`);
      const page = await agent.get('/console/events').set('Host', HOST);
      return { agent, csrf: csrfIn(page.text), cookie: String(answer.headers['set-cookie']).split(';')[0]! };
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

/**
 * Another receiver process over the same database: a fresh admin app with its own Sessions, as a
 * restart or a second replica has (no relay; the console is what is under test).
 */
export function consoleAppOver(
  store: Store, env: Record<string, string> = {}, now: () => Date = () => new Date(), adminToken = ADMIN_TOKEN,
): ReturnType<typeof createAdminApp> {
  const config = loadConfig({ TRUST_PROXY: '127.0.0.1,::1', ...env });
  return createAdminApp({
    store,
    publisher: { kind: 'none', publish: async () => undefined, status: () => ({ connected: false, detail: 'no relay in this test' }), close: async () => undefined },
    relay: null,
    metrics: createMetrics(),
    isShuttingDown: () => false,
    console: { store, config, logger: createLogger({ level: 'error', silent: true }), adminToken, sessions: consoleSessions(store, adminToken, () => now().getTime()), now },
  });
}

/** Database sessions over `store`, as main.ts makes them (30 minutes idle unless told). */
export function consoleSessions(store: Store, bootstrapToken = ADMIN_TOKEN, now: () => number = () => Date.now(), idleMinutes = 30): Sessions {
  return createSessions({ store, now, idleMinutes, bootstrapToken });
}

export function csrfIn(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('no CSRF token on the page');
  return match[1]!;
}
