import request from 'supertest';
import { Writable } from 'node:stream';
import { createAdminApp } from '../../src/admin/admin-app';
import { loadConfig } from '../../src/config/env';
import type { ConsoleDeps } from '../../src/console/console-deps';
import { importGatewayFileWith } from '../../src/console/import-gateway-file';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { newSecret, secretHash } from '../../src/store/operator-credentials';
import type { OperatorRole } from '../../src/store/store';
import { startLedgerApp, type LedgerApp } from '../ledger/ledger-app-harness';
import { ADMIN_TOKEN, HOST, ORIGIN, consoleSessions, csrfIn } from './console-harness';

export interface LedgerConsole {
  /** The notification listener and the internal API over one store with the ledger on. */
  ledgerApp: LedgerApp;
  admin: ReturnType<typeof createAdminApp>;
  consoleDeps: ConsoleDeps;
  consoleLogs: () => Array<Record<string, unknown>>;
  /** Adds an operator and returns their token (for a browser's sign-in form). */
  addOperator: (name: string, role: OperatorRole) => Promise<string>;
  /** A signed-in agent (keeps the cookie) for a new operator, and its CSRF token. */
  signIn: (name: string, role: OperatorRole) => Promise<{ agent: request.Agent; csrf: string }>;
  close: () => Promise<void>;
}

/**
 * The service as main.ts assembles it with the payment ledger: notifications in through the real
 * listener, the console's admin app over the same store with the ledger's verbs (a SQLite file,
 * or `databaseUrl`).
 */
export async function startLedgerConsole(options: { databaseUrl?: string; now?: () => Date; env?: Record<string, string> } = {}): Promise<LedgerConsole> {
  const ledgerApp = await startLedgerApp({ ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}) });
  const { store, commands, ledger, reconciliation } = ledgerApp.stores;
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    stream: new Writable({ write: (chunk, _enc, done) => { lines.push(...String(chunk).split('\n').filter(Boolean)); done(); } }),
  });
  // The console's clock (a test can set what "today" is); the listener keeps the real one.
  const now = options.now ?? (() => new Date());
  const consoleDeps: ConsoleDeps = {
    store, commands, ledger, reconciliation, logger, now, adminToken: ADMIN_TOKEN,
    config: loadConfig({ TRUST_PROXY: '127.0.0.1,::1', ...options.env }),
    importGatewayFile: importGatewayFileWith({ reconciliation, ledger }),
    sessions: consoleSessions(store, ADMIN_TOKEN),
  };
  const admin = createAdminApp({
    store,
    publisher: { kind: 'none', publish: async () => undefined, status: () => ({ connected: false, detail: 'the ledger app relays' }), close: async () => undefined },
    relay: null,
    metrics: createMetrics(),
    isShuttingDown: () => false,
    console: consoleDeps,
  });
  const added = new Set<string>();
  const addOperator = async (name: string, role: OperatorRole) => {
    if (added.has(name)) throw new Error(`add ${name} once per test`);
    added.add(name);
    const token = newSecret();
    await store.addOperator({ name, role, tokenHash: secretHash(token), createdAt: now().toISOString() });
    return token;
  };
  return {
    ledgerApp,
    admin,
    consoleDeps,
    consoleLogs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    addOperator,
    async signIn(name, role) {
      const token = await addOperator(name, role);
      const agent = request.agent(admin);
      const answer = await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token });
      if (answer.status !== 303) throw new Error(`sign-in failed: ${answer.status}`);
      const page = await agent.get('/console/orders').set('Host', HOST);
      return { agent, csrf: csrfIn(page.text) };
    },
    close: () => ledgerApp.close(),
  };
}
