import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/env';
import type { NormalizedEvent } from '../../src/notifications/normalized-event';
import { NOTI_TYPES } from '../../src/notifications/event-types';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { openFilePublisher } from '../../src/publishers/file-publisher';
import { startRelay, type Relay } from '../../src/relay/relay';
import { runSimulation } from '../../src/simulator/run-simulation';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { Store } from '../../src/store/store';
import type { Publisher } from '../../src/publishers/publisher';

describe('the simulator against the real receiver', () => {
  let dir: string;
  let server: Server;
  let store: Store;
  let relay: Relay;
  let publisher: Publisher;
  let url: string;
  const eventsFile = () => join(dir, 'events.ndjson');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-sim-'));
    const config = loadConfig({ TRUST_PROXY: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}` });
    const logger = createLogger({ level: 'error', silent: true });
    const metrics = createMetrics();
    store = openSqliteStore(join(dir, 'receiver.db'));
    publisher = await openFilePublisher(eventsFile());
    relay = startRelay({ store, publisher, logger, metrics, pollIntervalMs: 50 });
    // A real listener: the simulator speaks HTTP over a socket as the gateway does.
    server = createApp({ config, store, logger, metrics }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${config.NOTIFY_PATH}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await relay.stop(2_000);
    await publisher.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every event type is acked in its form; redeliveries are acked but stored and forwarded once', async () => {
    const summary = await runSimulation({
      url, events: NOTI_TYPES, count: 4, duplicates: 2, concurrency: 8,
      gatewayRetries: false, retryIntervalMs: 0, forwardedFor: '61.33.205.151',
    });
    expect(summary.problems).toEqual([]);
    expect(summary).toMatchObject({ ok: true, notifications: 32, deliveries: 96, acked: 96, failed: 0, unexpected: 0 });
    expect(Object.keys(summary.byType).sort()).toEqual([...NOTI_TYPES].sort());

    const forwarded = await forwardedEvents(eventsFile(), 32);
    expect(new Set(forwarded.map((e) => e.id)).size).toBe(32);
    expect(forwarded).toHaveLength(32);
    const rows = await store.listEvents({ limit: 1000 });
    expect(rows).toHaveLength(32);
    expect(rows.every((row) => row.redeliveries === 2)).toBe(true);

    // Partial cancels share their payment's pgCno; escrow statuses share one pgCno too.
    const cancels = forwarded.filter((e) => e.notiType === '20');
    expect(new Set(cancels.map((e) => e.pgCno)).size).toBeLessThan(cancels.length);
    expect(new Set(cancels.map((e) => e.cancelPgCno)).size).toBe(cancels.length);
    const escrow = forwarded.filter((e) => e.notiType === '40');
    expect(new Set(escrow.map((e) => e.pgCno)).size).toBe(1);
    expect(escrow.map((e) => e.status?.code)).toEqual(['ES01', 'ES02', 'ES03', 'ES07']);
    const unionPay = forwarded.find((e) => e.notiType === '70')!;
    expect(unionPay.resultMessage).toBe('정상처리되었습니다');
    expect(forwarded.some((e) => e.basket.length === 3)).toBe(true);
  });
});

/** Waits for the relay to append `n` lines; the assertion is on the content, never on the time taken. */
async function forwardedEvents(file: string, n: number): Promise<NormalizedEvent[]> {
  const read = () =>
    existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as NormalizedEvent) : [];
  const deadline = Date.now() + 10_000;
  while (read().length < n && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return read();
}
