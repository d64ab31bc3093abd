import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startInternalApi, type InternalApi } from '../../src/api/start-internal-api';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/env';
import { ledgerSettingsOf } from '../../src/config/ledger-env';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { simulatorKey } from '../../src/notifications/simulator-mark';
import { SECRET_KEY } from './sandbox-fixtures';

const API_TOKEN = 'sandbox-ledger-token-0123456789abcdef';

export interface LedgerReceiver {
  stores: Stores;
  /** Where the sandbox sends its notifications. */
  notifyUrl: string;
  /** The internal API's base URL and bearer token, for a client of its own (the simulator). */
  apiUrl: string;
  apiToken: string;
  /** What the internal API sends its commands with (the console's Cancel takes the same). */
  commandDeps: InternalApi['commandDeps'];
  /** The internal API, with its token: GET when `body` is undefined, else `method` (POST by default). */
  api(path: string, body?: unknown, method?: 'POST' | 'PUT'): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

/**
 * The receiver as main.ts assembles it with the payment ledger on: its notification listener on
 * a real socket (the sandbox's 127.0.0.1 let in by EXTRA_ALLOWED_IPS, as a developer runs it) and
 * its internal API, whose gateway is the sandbox, over one SQLite file. `env`: more settings
 * (`MALL_IDS`, say).
 */
export async function startLedgerReceiver(sandboxUrl: string, env: Record<string, string> = {}): Promise<LedgerReceiver> {
  const dir = mkdtempSync(join(tmpdir(), 'noti-sandbox-ledger-'));
  const config = loadConfig({
    TRUST_PROXY: '',
    EXTRA_ALLOWED_IPS: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`,
    QUEUE_URL: `file:${join(dir, 'events.ndjson')}`,
    API_PORT: '0',
    API_TOKEN,
    GATEWAY_SECRET_KEY: SECRET_KEY,
    GATEWAY_WALLET_A_URL: sandboxUrl,
    GATEWAY_WALLET_B_URL: sandboxUrl,
    GATEWAY_VAN_URL: sandboxUrl,
    GATEWAY_TIMEOUT_MS: '2000',
    GATEWAY_RETRY_BASE_MS: '20',
    ...env,
  });
  const logger = createLogger({ level: 'error', stream: new Writable({ write: (_c, _e, done) => done() }) });
  const metrics = createMetrics();
  const stores = await openStores(config.DATABASE_URL, { ledger: ledgerSettingsOf(config) });
  // Keyed as main.ts keys it: the simulator signs with the receiver's API_TOKEN.
  const server: Server = createApp({ config, store: stores.store, logger, metrics, simulatorKeys: [simulatorKey(API_TOKEN)] }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const internalApi: InternalApi = await startInternalApi({ config, commands: stores.commands, ledger: stores.ledger, storeKind: stores.kind, logger, metrics });
  return {
    stores,
    notifyUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${config.NOTIFY_PATH}`,
    apiUrl: `http://127.0.0.1:${internalApi.port}`,
    apiToken: API_TOKEN,
    commandDeps: internalApi.commandDeps,
    async api(path, body, method = 'POST') {
      const res = await fetch(`http://127.0.0.1:${internalApi.port}${path}`, {
        method: body === undefined ? 'GET' : method,
        headers: { Authorization: `Bearer ${API_TOKEN}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    async close() {
      await internalApi.stop(2_000);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await stores.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
