import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createAdminApp } from '../../src/admin/admin-app';
import { createApiApp } from '../../src/api/api-app';
import { commandDeps } from '../../src/api/start-internal-api';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/env';
import { ledgerSettingsOf } from '../../src/config/ledger-env';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import type { OrderRecord } from '../../src/ledger/fold/order-record';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { approvalNotification, encodeForm, nextPgCno, unionPayFields } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { DEV_GATEWAY_IP } from '../helpers/test-receiver';
import { ADMIN_TOKEN, HOST, ORIGIN, consoleSessions, csrfIn } from '../console/console-harness';
import { API_TOKEN, HMAC_KEY } from './api-harness';
import type { FakeGateway } from './fake-gateway';

export const MALL = 'T0001234';

export interface CancelService {
  stores: Stores;
  /** The admin listener's app, with the console (for a browser: listenForBrowser). */
  admin: ReturnType<typeof createAdminApp>;
  /** POST a gateway notification (JSON) to the notification listener. */
  notify(body: unknown): request.Test;
  /** POST event 70's EUC-KR form bytes to the notification listener. */
  notifyForm(body: Buffer): request.Test;
  /** The internal API, with its token. */
  api: { post(path: string, body: unknown): request.Test; put(path: string, body: unknown): request.Test };
  /** The console as the bootstrap admin: an agent that keeps the session, and its CSRF token. */
  signIn(): Promise<{ agent: request.Agent; csrf: string }>;
  /** The order's record once `probe` holds for it (the ledger's projector follows the store). */
  orderWhen(shopOrderNo: string, probe: (order: OrderRecord) => boolean, what?: string): Promise<OrderRecord>;
  close(): Promise<void>;
}

/**
 * One replica of the service as main.ts assembles it, with the ledger on: the notification
 * listener, the internal API and the console's admin app (supertest's), over one store (a SQLite
 * file, or `databaseUrl`: two of them on one PostgreSQL schema are two replicas), sending its
 * gateway commands to `gateway` over real HTTP. `dir`: the SQLite file's folder, kept on close (a
 * restart), the caller's to remove.
 */
export async function startCancelService(
  gateway: FakeGateway,
  options: { databaseUrl?: string; env?: Record<string, string>; dir?: string } = {},
): Promise<CancelService> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'noti-cancels-'));
  const config = loadConfig({
    TRUST_PROXY: '127.0.0.1,::1',
    DATABASE_URL: options.databaseUrl ?? `sqlite:${join(dir, 'receiver.db')}`,
    QUEUE_URL: `file:${join(dir, 'events.ndjson')}`,
    API_TOKEN,
    GATEWAY_SECRET_KEY: HMAC_KEY,
    GATEWAY_WALLET_B_URL: gateway.url,
    GATEWAY_VAN_URL: gateway.url,
    GATEWAY_TIMEOUT_MS: '10000',
    GATEWAY_RETRY_BASE_MS: '20',
    LEDGER_DEFAULT_CURRENCY: 'KRW',
    ...options.env,
  });
  const logger = createLogger({ level: 'error', stream: new Writable({ write: (_c, _e, done) => done() }) });
  const metrics = createMetrics();
  const stores = await openStores(config.DATABASE_URL, { ledger: ledgerSettingsOf(config) });
  const { store, commands, ledger } = stores;
  const notifications = createApp({ config, store, logger, metrics });
  const deps = commandDeps({ config, commands, ledger, storeKind: stores.kind, logger, metrics });
  const api = createApiApp({ commands: deps, apiToken: API_TOKEN, ledger, mallIds: config.MALL_IDS });
  const admin = createAdminApp({
    store,
    publisher: { kind: 'none', publish: async () => undefined, status: () => ({ connected: false, detail: 'no relay in this test' }), close: async () => undefined },
    relay: null, metrics, isShuttingDown: () => false,
    console: { store, commands, ledger, gatewayCommands: deps, adminToken: ADMIN_TOKEN, now: () => new Date(), logger, config, sessions: consoleSessions(store, ADMIN_TOKEN) },
  });
  const auth = (test: request.Test) => test.set('Authorization', `Bearer ${API_TOKEN}`);
  return {
    stores,
    admin,
    notify: (body) => request(notifications).post(config.NOTIFY_PATH).set('X-Forwarded-For', DEV_GATEWAY_IP)
      .set('Content-Type', 'application/json; charset=utf-8').send(JSON.stringify(body)),
    // superagent would re-serialize a Buffer as a form object; the bytes must go out as built.
    notifyForm: (body) => request(notifications).post(config.NOTIFY_PATH).set('X-Forwarded-For', DEV_GATEWAY_IP)
      .set('Content-Type', 'application/x-www-form-urlencoded').serialize((raw: unknown) => raw as string).send(body),
    api: {
      post: (path, body) => auth(request(api).post(path)).send(body as object),
      put: (path, body) => auth(request(api).put(path)).send(body as object),
    },
    async signIn() {
      const agent = request.agent(admin);
      const answer = await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token: ADMIN_TOKEN });
      if (answer.status !== 303) throw new Error(`sign-in failed: ${answer.status}`);
      return { agent, csrf: csrfIn((await agent.get('/console/orders').set('Host', HOST)).text) };
    },
    orderWhen: (shopOrderNo, probe, what = 'the order') => eventually(async () => {
      const order = await ledger.getOrder({ mallId: MALL, shopOrderNo });
      return order !== null && probe(order) && order;
    }, 10_000, what),
    async close() {
      await deps.inFlight.settled(5_000);
      await store.close();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PaidOrder {
  shopOrderNo: string;
  pgCno: string;
  /** The order's console page. */
  path: string;
}

/** A wallet payment of `amount` won the console can cancel through wallet-b: the shop's expectation (method wallet) and the gateway's approval. */
export async function walletPayment(service: CancelService, amount: number, shopOrderNo = `ORD-CXL-${nextPgCno()}`): Promise<PaidOrder> {
  await service.api.put(`/v1/orders/${MALL}/${shopOrderNo}/expectation`, { amount, currency: 'KRW', method: 'wallet', expiresAt: null }).expect(200);
  const pgCno = nextPgCno();
  await service.notify(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: String(amount), payMethodTypeCode: '16' })).expect(200);
  await service.orderWhen(shopOrderNo, (o) => o.payments.some((p) => p.pgCno === pgCno), 'the payment in the record');
  return { shopOrderNo, pgCno, path: `/console/orders/${MALL}/${encodeURIComponent(shopOrderNo)}` };
}

/** A UnionPay approval of `amount` won (event 70, an EUC-KR form): a payment the console cancels whole through the VAN. */
export async function vanPayment(service: CancelService, amount: number): Promise<PaidOrder> {
  const fields = unionPayFields({ memb_id: MALL, amount: String(amount) });
  await service.notifyForm(encodeForm(fields)).expect(200);
  await service.orderWhen(fields.order_no, (o) => o.payments.some((p) => p.pgCno === fields.cno), 'the VAN payment in the record');
  return { shopOrderNo: fields.order_no, pgCno: fields.cno, path: `/console/orders/${MALL}/${encodeURIComponent(fields.order_no)}` };
}

export const partialCancel = (pgCno: string, totAmount: number, shopTransactionId: string) => ({
  mallId: MALL, pgCno, reviseTypeCode: '32', amountInfo: { currency: 'KRW', totAmount }, memo: 'customer asked', regId: 'ops01', shopTransactionId,
});
