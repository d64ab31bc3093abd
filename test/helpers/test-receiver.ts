import { once } from 'node:events';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config/env';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { openFilePublisher } from '../../src/publishers/file-publisher';
import type { Publisher } from '../../src/publishers/publisher';
import { startRelay, type Relay } from '../../src/relay/relay';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { Store } from '../../src/store/store';
import type { NormalizedEvent } from '../../src/notifications/normalized-event';

/** The development gateway's address, which tests send from through a trusted local proxy. */
export const DEV_GATEWAY_IP = '61.33.205.151';
export const PROD_GATEWAY_IP = '203.233.72.150';

export interface TestReceiver {
  app: ReturnType<typeof createApp>;
  store: Store;
  metrics: ReturnType<typeof createMetrics>;
  config: Config;
  dir: string;
  eventsFile: string;
  logs: () => Array<Record<string, unknown>>;
  relay: Relay | null;
  publisher: Publisher | null;
  /** Wait until the relay has written at least `n` events to the file, then return them all. */
  forwarded: (n?: number) => Promise<NormalizedEvent[]>;
  /** POST as the gateway: through a trusted proxy (127.0.0.1) naming the gateway in X-Forwarded-For. */
  postJson: (body: unknown, from?: string) => request.Test;
  postForm: (body: Buffer | string, contentType?: string, from?: string) => request.Test;
  count: (table: 'inbox' | 'outbox' | 'rejections' | 'conflicts') => Promise<number>;
  close: () => Promise<void>;
}

/**
 * The real app on a real SQLite file in a temp dir, a real file sink and (optionally) the
 * real relay; only the listener is supertest's. Log lines are captured for assertions.
 */
export async function startTestReceiver(env: Record<string, string> = {}, options: { relay?: boolean } = {}): Promise<TestReceiver> {
  const dir = mkdtempSync(join(tmpdir(), 'noti-receiver-'));
  const eventsFile = join(dir, 'events.ndjson');
  const config = loadConfig({
    TRUST_PROXY: '127.0.0.1,::1',
    DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`,
    QUEUE_URL: `file:${eventsFile}`,
    ...env,
  });
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger({ level: 'debug', stream });
  const metrics = createMetrics();
  const store = openSqliteStore(join(dir, 'receiver.db'));
  const withRelay = options.relay ?? true;
  const publisher = withRelay ? await openFilePublisher(eventsFile) : null;
  const relay = publisher ? startRelay({ store, publisher, logger, metrics, pollIntervalMs: 50 }) : null;
  const app = createApp({ config, store, logger, metrics });

  const readEvents = (): NormalizedEvent[] =>
    existsSync(eventsFile)
      ? readFileSync(eventsFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as NormalizedEvent)
      : [];

  return {
    app,
    store,
    metrics,
    config,
    dir,
    eventsFile,
    relay,
    publisher,
    logs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    async forwarded(n = 0) {
      const deadline = Date.now() + 10_000;
      while (readEvents().length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return readEvents();
    },
    postJson: (body, from = DEV_GATEWAY_IP) =>
      request(app)
        .post(config.NOTIFY_PATH)
        .set('X-Forwarded-For', from)
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(typeof body === 'string' ? body : JSON.stringify(body)),
    postForm: (body, contentType = 'application/x-www-form-urlencoded', from = DEV_GATEWAY_IP) =>
      request(app)
        .post(config.NOTIFY_PATH)
        .set('X-Forwarded-For', from)
        .set('Content-Type', contentType)
        // superagent would re-serialize a Buffer as a form object; the bytes must go out as built.
        .serialize((raw: unknown) => raw as string)
        .send(body),
    async count(table) {
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(join(dir, 'receiver.db'), { readonly: true });
      try {
        return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      } finally {
        db.close();
      }
    },
    async close() {
      await relay?.stop(2_000);
      await publisher?.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A test receiver behind its real notification listener on a loopback port, for raw-socket tests. */
export interface ListeningReceiver {
  receiver: TestReceiver;
  port: number;
  close: () => Promise<void>;
}

export async function startListeningReceiver(env: Record<string, string> = {}): Promise<ListeningReceiver> {
  const receiver = await startTestReceiver(env, { relay: false });
  const server = receiver.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    receiver,
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await receiver.close();
    },
  };
}
