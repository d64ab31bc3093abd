import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import request from 'supertest';
import { readListOffLoop } from '../../src/reconciliation/import/read-off-loop';
import { createApiApp } from '../../src/api/api-app';
import { commandDeps } from '../../src/api/start-internal-api';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/env';
import { ledgerSettingsOf } from '../../src/config/ledger-env';
import { startLedgerSweep } from '../../src/ledger/projector/ledger-sweep-schedule';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { registerLedgerGauge } from '../../src/ledger/projector/ledger-gauges';
import { openFilePublisher } from '../../src/publishers/file-publisher';
import { startRelay } from '../../src/relay/relay';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { simulatorKey } from '../../src/notifications/simulator-mark';
import { signerOf } from '../../src/simulator/simulator-signer';
import { inContract } from '../helpers/event-contract';
import { DEV_GATEWAY_IP } from '../helpers/test-receiver';

export const API_TOKEN = 'test-api-token-0123456789abcdef';

export interface LedgerApp {
  stores: Stores;
  /** The store's URL, for a test that must reach past the service (a fault, an operator's repair). */
  databaseUrl: string;
  metrics: ReturnType<typeof createMetrics>;
  /** POST a gateway notification (JSON) to the notification listener, as the development gateway. */
  notify(body: unknown): request.Test;
  /** The same, signed as this receiver's own simulator signs it (with its API_TOKEN, as main.ts keys it). */
  notifySimulated(body: unknown): request.Test;
  /** POST these exact JSON bytes with these headers, as the development gateway. */
  notifyRaw(raw: string, headers: Record<string, string | string[]>): request.Test;
  /** POST a form body (event 70's EUC-KR bytes) to the notification listener, as the development gateway. */
  notifyForm(body: Buffer, contentType?: string): request.Test;
  /** The internal API's app itself, for a request the helpers below do not make (a file's bytes). */
  apiApp: Express;
  api: {
    get(path: string): request.Test;
    put(path: string, body: unknown): request.Test;
    post(path: string, body: unknown): request.Test;
  };
  /** One sweep of the service's schedule, at `now`. */
  sweepAt(now: Date): Promise<void>;
  /** Events the relay forwarded to the file sink, once at least `n` are there. */
  forwarded(n: number): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

/**
 * The service's two listeners as main.ts assembles them, over one store with the ledger on: the
 * notification app and the internal API (supertest's listeners), the relay with a file sink.
 */
export async function startLedgerApp(options: { databaseUrl?: string; env?: Record<string, string> } = {}): Promise<LedgerApp> {
  const dir = mkdtempSync(join(tmpdir(), 'noti-ledger-app-'));
  const eventsFile = join(dir, 'events.ndjson');
  const config = loadConfig({
    TRUST_PROXY: '127.0.0.1,::1',
    DATABASE_URL: options.databaseUrl ?? `sqlite:${join(dir, 'receiver.db')}`,
    QUEUE_URL: `file:${eventsFile}`,
    API_TOKEN,
    ...options.env,
  });
  const logger = createLogger({ level: 'error', stream: new Writable({ write: (_c, _e, done) => done() }) });
  const metrics = createMetrics();
  const stores = await openStores(config.DATABASE_URL, { ledger: ledgerSettingsOf(config) });
  registerLedgerGauge(metrics, stores.ledger);
  const publisher = await openFilePublisher(eventsFile);
  const relay = startRelay({ store: stores.store, publisher, logger, metrics, pollIntervalMs: 20 });
  const app = createApp({ config, store: stores.store, logger, metrics, simulatorKeys: [simulatorKey(API_TOKEN)] });
  const sign = signerOf(API_TOKEN);
  const deps = commandDeps({ config, commands: stores.commands, ledger: stores.ledger, storeKind: stores.kind, logger, metrics });
  const api = createApiApp({ commands: deps, apiToken: API_TOKEN, ledger: stores.ledger, reconciliation: { store: stores.reconciliation, ledger: stores.ledger, read: readListOffLoop } });
  const auth = (test: request.Test) => test.set('Authorization', `Bearer ${API_TOKEN}`);
  const read = () => inContract(existsSync(eventsFile) ? readFileSync(eventsFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : []);
  return {
    stores,
    databaseUrl: config.DATABASE_URL,
    metrics,
    apiApp: api,
    notify: (body) => request(app).post(config.NOTIFY_PATH).set('X-Forwarded-For', DEV_GATEWAY_IP).set('Content-Type', 'application/json; charset=utf-8').send(JSON.stringify(body)),
    notifyRaw: (raw, headers) => request(app).post(config.NOTIFY_PATH).set('X-Forwarded-For', DEV_GATEWAY_IP).set('Content-Type', 'application/json; charset=utf-8').set(headers).send(raw),
    notifySimulated: (body) => {
      const raw = JSON.stringify(body);
      return request(app).post(config.NOTIFY_PATH).set('X-Forwarded-For', DEV_GATEWAY_IP).set('Content-Type', 'application/json; charset=utf-8').set(sign(Buffer.from(raw, 'utf8'))).send(raw);
    },
    notifyForm: (body, contentType = 'application/x-www-form-urlencoded') => request(app).post(config.NOTIFY_PATH).set('X-Forwarded-For', DEV_GATEWAY_IP).set('Content-Type', contentType)
      // superagent would re-serialize a Buffer as a form object; the bytes must go out as built.
      .serialize((raw: unknown) => raw as string).send(body),
    api: {
      get: (path) => auth(request(api).get(path)),
      put: (path, body) => auth(request(api).put(path)).send(body as object),
      post: (path, body) => auth(request(api).post(path)).send(body as object),
    },
    async sweepAt(now) {
      const sweep = startLedgerSweep({ ledger: stores.ledger, logger, now: () => now, intervalMs: 3_600_000 });
      await sweep.idle();
      sweep.stop();
    },
    async forwarded(n) {
      const deadline = Date.now() + 10_000;
      while (read().length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return read();
    },
    async close() {
      await relay.stop(2_000);
      await publisher.close();
      await stores.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
