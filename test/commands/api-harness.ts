import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createApiApp } from '../../src/api/api-app';
import { commandDeps } from '../../src/api/start-internal-api';
import type { CommandDeps } from '../../src/commands/command-deps';
import { startCommandWorker, type CommandWorker } from '../../src/commands/command-worker';
import { loadConfig, type Config } from '../../src/config/env';
import { createLogger } from '../../src/observability/logger';
import { createMetrics, type Metrics } from '../../src/observability/metrics';
import { registerCommandGauges } from '../../src/commands/command-gauges';
import { openFilePublisher } from '../../src/publishers/file-publisher';
import type { Publisher } from '../../src/publishers/publisher';
import { startRelay, type Relay } from '../../src/relay/relay';
import type { CommandStore } from '../../src/store/command-store';
import { openStores } from '../../src/ledger/projector/open-stores';
import type { Store } from '../../src/store/store';
import { WARMUP_PATH, type FakeGateway } from './fake-gateway';
import { inContract } from '../helpers/event-contract';

export const API_TOKEN = 'test-api-token-0123456789abcdef';
/** Short enough for quick time-out tests, long enough for a loaded CI machine to answer a live call. */
export const TEST_TIMEOUT_MS = 800;
export const HMAC_KEY = 'test-hmac-key-do-not-log-7f3a9c';

export interface ApiHarness {
  dir: string;
  config: Config;
  deps: CommandDeps;
  store: Store;
  commands: CommandStore;
  metrics: Metrics;
  worker: CommandWorker;
  /** Shifts the service's clock (ms) against real time: midnight in Korea without waiting for it. */
  setClockOffset(ms: number): void;
  /** Stops the service's clock at `ms` (epoch) until the next setClockOffset: a moment that no machine load can move. */
  freezeClock(ms: number): void;
  post(path: string, body: unknown): request.Test;
  put(path: string, body: unknown): request.Test;
  get(path: string): request.Test;
  logs(): string[];
  /** Events the relay wrote to the file sink. */
  forwarded(): Array<{ id: string; type: string; data: Record<string, unknown> }>;
  /** Stops everything but keeps the database, as a process exit would. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The internal API as main.ts assembles it: a real SQLite file (or the given database URL), the
 * real worker and relay with a file sink, the gateway client pointed at a fake gateway over
 * real HTTP. Only the API listener is supertest's. Short time-outs and back-off keep tests quick.
 */
export async function startApiHarness(
  gateway: FakeGateway,
  env: Record<string, string> = {},
  options: { dir?: string; clockOffsetMs?: number; worker?: boolean; owner?: string } = {},
): Promise<ApiHarness> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'noti-api-'));
  const eventsFile = join(dir, 'events.ndjson');
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`,
    QUEUE_URL: `file:${eventsFile}`,
    API_TOKEN,
    GATEWAY_SECRET_KEY: HMAC_KEY,
    GATEWAY_WALLET_A_URL: gateway.url,
    GATEWAY_WALLET_B_URL: gateway.url,
    GATEWAY_VAN_URL: gateway.url,
    PUBLIC_NOTIFY_URL: 'https://shop.example.com/notifications',
    GATEWAY_TIMEOUT_MS: String(TEST_TIMEOUT_MS),
    GATEWAY_RETRY_BASE_MS: '20',
    GATEWAY_MAX_ATTEMPTS: '5',
    ...env,
  });
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    stream: new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    }),
  });
  const metrics = createMetrics();
  // A process's first fetch loads its HTTP client; paid here, not by the first attempt under test.
  await fetch(`${gateway.url}${WARMUP_PATH}`);
  const { store, commands, ledger, kind } = await openStores(config.DATABASE_URL);
  let offset = options.clockOffsetMs ?? 0;
  let frozenAt: number | null = null;
  const deps: CommandDeps = {
    ...commandDeps({ config, commands, storeKind: kind, logger, metrics }),
    now: () => new Date(frozenAt ?? Date.now() + offset),
  };
  if (options.owner) deps.owner = options.owner;
  registerCommandGauges(metrics, commands, config.COMMAND_PENDING_ALERT_MS);
  if (kind === 'sqlite') await commands.releaseAllLeases();
  const publisher: Publisher = await openFilePublisher(eventsFile);
  const relay: Relay = startRelay({ store, publisher, logger, metrics, pollIntervalMs: 20 });
  const worker = options.worker === false ? { wake: () => undefined, stop: async () => undefined } : startCommandWorker(deps, { pollMs: 20 });
  deps.wakeWorker = () => worker.wake();
  const app = createApiApp({ commands: deps, apiToken: API_TOKEN, ledger, mallIds: config.MALL_IDS, queue: { url: config.QUEUE_URL, name: config.QUEUE_NAME } });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await deps.inFlight.settled(2_000);
    await worker.stop(2_000);
    await relay.stop(2_000);
    await publisher.close();
    await store.close();
  };
  return {
    dir,
    config,
    deps,
    store,
    commands,
    metrics,
    worker,
    setClockOffset: (ms) => {
      frozenAt = null;
      offset = ms;
    },
    freezeClock: (ms) => void (frozenAt = ms),
    post: (path, body) => request(app).post(path).set('Authorization', `Bearer ${API_TOKEN}`).send(body as object),
    put: (path, body) => request(app).put(path).set('Authorization', `Bearer ${API_TOKEN}`).send(body as object),
    get: (path) => request(app).get(path).set('Authorization', `Bearer ${API_TOKEN}`),
    logs: () => lines,
    forwarded: () =>
      inContract(existsSync(eventsFile) ? readFileSync(eventsFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []),
    stop,
    async close() {
      await stop();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const walletCancel = (overrides: Record<string, unknown> = {}) => ({
  mallId: 'T0001234',
  pgCno: '20261122000012345678',
  reviseTypeCode: '40',
  amountInfo: { currency: 'USD' },
  memo: 'customer asked',
  regId: 'ops01',
  ...overrides,
});

export const tradeCreation = (overrides: Record<string, unknown> = {}) => ({
  mallId: 'T0001234',
  shopOrderNo: 'ORDER-0001',
  goodsName: 'Coffee beans 1kg',
  amountInfo: { totalAmount: 1203, currency: 'USD' },
  tradeType: 'native',
  ...overrides,
});

export const vanApproval = (overrides: Record<string, unknown> = {}) => ({
  mallId: 'T0001234',
  shopTransactionId: `van-${Math.random().toString(36).slice(2, 10)}`,
  amount: '15000',
  cardToken: 'tok_4111111111111111',
  ...overrides,
});
