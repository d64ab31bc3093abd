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
import { simulatorKey } from '../../src/notifications/simulator-mark';
import { signerOf } from '../../src/simulator/simulator-signer';

const SECRET = 'simulator-test-secret-2b7e0d94';
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
    server = createApp({ config, store, logger, metrics, simulatorKeys: [simulatorKey(SECRET)] }).listen(0, '127.0.0.1');
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
      gatewayRetries: false, retryIntervalMs: 0, forwardedFor: '61.33.205.151', sign: signerOf(SECRET),
    });
    expect(summary.problems).toEqual([]);
    // 4 orders per story; a story holds 1 (10, 30, 70), 2 (31), 3 (20, 50), 4 (51) or 5 (40) notifications: 20 in all.
    expect(summary).toMatchObject({ ok: true, orders: 32, notifications: 80, deliveries: 240, acked: 240, failed: 0, unexpected: 0 });
    expect(Object.keys(summary.byType).sort()).toEqual([...NOTI_TYPES].sort());

    const forwarded = await forwardedEvents(eventsFile(), 80);
    expect(new Set(forwarded.map((e) => e.id)).size).toBe(80);
    expect(forwarded).toHaveLength(80);
    const rows = await store.listEvents({ limit: 1000 });
    expect(rows).toHaveLength(80);
    expect(rows.every((row) => row.redeliveries === 2)).toBe(true);

    // Every notification carried the simulator's signature, which the receiver checked; its body names no simulator.
    expect(forwarded.every((e) => e.source.simulator === true && !('simulator' in e.data))).toBe(true);
    // Each order's story, in the gateway's time: an approval or a deposit first, then what follows it.
    const byOrder = groupBy(forwarded, (e) => e.shopOrderNo ?? '');
    for (const story of byOrder.values()) {
      const told = [...story].sort((a, b) => Date.parse(a.occurredAt ?? a.receivedAt) - Date.parse(b.occurredAt ?? b.receivedAt));
      expect(['10', '30', '70']).toContain(told[0]!.notiType);
      expect(told.slice(1).every((e) => e.pgCno === told[0]!.pgCno)).toBe(true);
    }
    // Partial cancels share their payment's pgCno; escrow statuses walk one pgCno each.
    const cancels = forwarded.filter((e) => e.notiType === '20');
    expect(new Set(cancels.map((e) => e.pgCno)).size).toBeLessThan(cancels.length);
    expect(new Set(cancels.map((e) => e.cancelPgCno)).size).toBe(cancels.length);
    const escrow = forwarded.filter((e) => e.notiType === '40');
    for (const walk of groupBy(escrow, (e) => e.pgCno).values()) {
      expect([...walk].sort((a, b) => Date.parse(a.occurredAt!) - Date.parse(b.occurredAt!)).map((e) => e.status?.code)).toEqual(['ES01', 'ES02', 'ES03', 'ES07']);
    }
    const unionPay = forwarded.find((e) => e.notiType === '70')!;
    expect(unionPay.resultMessage).toBe('정상처리되었습니다');
    expect(forwarded.some((e) => e.basket.length === 3)).toBe(true);
  });
});

/** Map.groupBy, which Node 20 lacks. */
function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** Waits for the relay to append `n` lines; the assertion is on the content, never on the time taken. */
async function forwardedEvents(file: string, n: number): Promise<NormalizedEvent[]> {
  const read = () =>
    existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as NormalizedEvent) : [];
  const deadline = Date.now() + 10_000;
  while (read().length < n && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return read();
}
