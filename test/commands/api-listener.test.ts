import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startInternalApi, type InternalApi } from '../../src/api/start-internal-api';
import { loadConfig } from '../../src/config/env';
import { createBoundedServer } from '../../src/http/bounded-server';
import { LISTENER_TIMEOUTS, type ListenerTimeouts } from '../../src/http/listener-timeouts';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { API_TOKEN, vanApproval } from './api-harness';
import { gate, PATHS, startFakeGateway, type FakeGateway } from './fake-gateway';

/**
 * The internal API's own listener (real sockets, raw HTTP/1.1): slow or unauthenticated clients
 * do not hold a socket, while a POST waiting on the gateway longer than the request time-out is
 * still answered. The test's own time-out is the generous bound.
 */
describe('the internal API listener cuts slow and refused clients', () => {
  let dir: string;
  let stores: Stores;
  let gateway: FakeGateway;
  let api: InternalApi;

  async function start(timeouts?: ListenerTimeouts, env: Record<string, string> = {}) {
    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`,
      API_TOKEN,
      API_PORT: '0',
      GATEWAY_VAN_URL: gateway.url,
      GATEWAY_TIMEOUT_MS: '1500',
      ...env,
    });
    stores = await openStores(config.DATABASE_URL);
    const logger = createLogger({ level: 'error', stream: new Writable({ write: (_c, _e, done) => done() }) });
    api = await startInternalApi({ config, commands: stores.commands, ledger: stores.ledger, storeKind: stores.kind, logger, metrics: createMetrics(), timeouts });
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-api-listener-'));
    gateway = await startFakeGateway();
  });
  afterEach(async () => {
    await api.stop(2_000);
    await stores.store.close();
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A raw socket to the API, everything it receives, and when the server closed it. */
  async function open(): Promise<{ socket: Socket; received: () => string; closed: Promise<string> }> {
    // allowHalfOpen: the server's FIN does not close this side, as a slow attacker's would not.
    const socket = connect({ port: api.port!, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    const received = () => Buffer.concat(chunks).toString('latin1');
    const closed = new Promise<string>((resolve) => {
      socket.on('end', () => resolve(received()));
      socket.on('close', () => resolve(received()));
    });
    await once(socket, 'connect');
    return { socket, received, closed };
  }

  it('an unauthenticated POST declaring 100 kB and trickling it gets its 401 with Connection: close, and the socket is closed at once', async () => {
    await start();
    const { socket, closed } = await open();
    socket.write('POST /v1/van/approvals HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
    let sent = 1;
    const trickle = setInterval(() => socket.writable && socket.write(' ') && (sent += 1), 50);
    try {
      const answer = await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
      // Closed within a hundred trickled bytes (5 s), long before the 30 s request time-out: the rest was never waited for.
      expect(sent).toBeLessThan(100);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
    expect(gateway.calls()).toHaveLength(0);
  });

  it('an authenticated POST declaring more than the body limit gets its 413 and the socket is closed, the body never read', async () => {
    await start();
    const { socket, closed } = await open();
    socket.write(`POST /v1/van/approvals HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${API_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{`);
    let sent = 1;
    const trickle = setInterval(() => socket.writable && socket.write(' ') && (sent += 1), 50);
    try {
      const answer = await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
      expect(sent).toBeLessThan(100);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });

  it('headers sent one line at a time are cut at the header time-out', async () => {
    await start({ headersMs: 300, requestMs: 600, keepAliveMs: 300 });
    const { socket, closed } = await open();
    socket.write('POST /v1/van/approvals HTTP/1.1\r\nHost: x\r\n');
    let n = 0;
    const trickle = setInterval(() => socket.writable && socket.write(`X-Slow-${(n += 1)}: y\r\n`), 50);
    try {
      expect(await closed).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });

  it('an authenticated body sent byte by byte is cut at the request time-out, and nothing is sent', async () => {
    await start({ headersMs: 300, requestMs: 600, keepAliveMs: 300 });
    const { socket, closed } = await open();
    socket.write(`POST /v1/van/approvals HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${API_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
    const trickle = setInterval(() => socket.writable && socket.write(' '), 50);
    try {
      await closed;
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
    expect(gateway.calls()).toHaveLength(0);
  });

  it('an idle connection is closed after its keep-alive time', async () => {
    await start({ headersMs: 300, requestMs: 600, keepAliveMs: 300 });
    const { socket, closed } = await open();
    socket.write(`GET /v1/commands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${API_TOKEN}\r\n\r\n`);
    expect(await closed).toMatch(/^HTTP\/1\.1 200 /);
    socket.destroy();
  });

  it('a POST waiting on a held gateway longer than the request time-out is still answered', async () => {
    await start({ headersMs: 300, requestMs: 600, keepAliveMs: 300 });
    const held = gate();
    gateway.script(PATHS.approve, { until: held.opened });
    const body = JSON.stringify(vanApproval({ shopTransactionId: 'held-approval' }));
    const res = await fetch(`http://127.0.0.1:${api.port!}/v1/van/approvals`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${API_TOKEN}`, 'Content-Type': 'application/json' },
      body,
    });
    held.open();
    // The approval's time-out (1.5 s) outlasts the request time-out (0.6 s): the answer still comes, the approval in doubt.
    expect(res.status).toBe(202);
    expect(((await res.json()) as { state: string }).state).toBe('net_cancelling');
  });
});

describe('the bounded listener (internal API, admin, sandbox)', () => {
  it("has the notification listener's time-outs, checked at least every second", () => {
    const server = createBoundedServer(() => undefined);
    expect(server.headersTimeout).toBe(LISTENER_TIMEOUTS.headersMs);
    expect(server.requestTimeout).toBe(LISTENER_TIMEOUTS.requestMs);
    expect(server.keepAliveTimeout).toBe(LISTENER_TIMEOUTS.keepAliveMs);
    // Node's own field (not in its typings): how often it looks for connections past their time-out.
    expect((server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval).toBeLessThanOrEqual(1_000);
  });
});
