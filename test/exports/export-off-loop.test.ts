import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import request from 'supertest';
import { createAdminApp } from '../../src/admin/admin-app';
import type { ConsoleDeps } from '../../src/console/console-deps';
import * as exportCells from '../../src/exports/export-cell';
import { createMetrics } from '../../src/observability/metrics';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { HOST, ORIGIN } from '../console/console-harness';
import { startLedgerConsole, type LedgerConsole } from '../console/ledger-console-harness';

const MALL = 'T0001234';
// A file larger than loopback's socket buffers can hold (the kernel grows them up to about 10 MB):
// a client that stops reading must stall the export, whatever the machine's load.
const EVENTS = 400;
/** About 45 KB a notification, with a phone number in every field, so each row's masking is real work. */
const largeFields = (n: number) => Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`shopValue${i + 10}`, `홍길동 010-1234-${String(n).padStart(4, '0')} `.repeat(45)]));

/**
 * Exports run off the loop that answers requests: the rows are masked and encoded on a thread of
 * their own, another operator's page is answered while a download streams, and a client that stops
 * reading is given up after the stall limit (shortened here through the console's deps).
 */
describe('an export of large notifications', () => {
  let h: LedgerConsole;
  let server: Server;
  let port: number;
  const serverSockets: Socket[] = [];
  let admin: ReturnType<typeof createAdminApp>;
  /** Every event the Events list holds: the notifications and the ledger's own events about their orders. */
  let listed = 0;

  beforeAll(async () => {
    h = await startLedgerConsole();
    for (let n = 1; n <= EVENTS; n += 1) {
      await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo: `ORD-BIG-${n}`, pgCno: `PGBIG${String(n).padStart(5, '0')}`, ...largeFields(n) })).expect(200);
    }
    for (let before: number | null = null, first = true; first || before !== null; first = false) {
      const page = await h.consoleDeps.store.exportEventsPage({}, before, 1000);
      listed += page.rows.length;
      before = page.last;
    }
    expect(listed).toBeGreaterThanOrEqual(EVENTS);
    const consoleDeps: ConsoleDeps = { ...h.consoleDeps, exportStallMs: 300 };
    admin = createAdminApp({
      store: h.consoleDeps.store,
      publisher: { kind: 'none', publish: async () => undefined, status: () => ({ connected: false, detail: 'none' }), close: async () => undefined },
      relay: null,
      metrics: createMetrics(),
      isShuttingDown: () => false,
      console: consoleDeps,
    });
    server = createServer(admin);
    server.on('connection', (socket) => serverSockets.push(socket));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  }, 120_000);
  afterAll(async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await h?.close();
  });

  const signIn = async (name: string) => {
    const token = await h.addOperator(name, 'operator');
    const answer = await request(admin).post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token }).expect(303);
    return String(answer.headers['set-cookie']).split(';')[0]!;
  };
  const exportsAudited = async () => (await h.consoleDeps.store.searchAudit({ action: 'exported', limit: 100 })).rows;

  /** The events store's reads, counted, in pages of `size` (so a download is many reads), each first awaiting `gate`. */
  const countReads = (size: number, gate: (n: number) => Promise<void> = async () => undefined) => {
    const store = h.consoleDeps.store;
    const real = store.exportEventsPage.bind(store);
    let reads = 0;
    const spy = jest.spyOn(store, 'exportEventsPage').mockImplementation(async (search, before) => {
      reads += 1;
      await gate(reads);
      return real(search, before, size);
    });
    return { reads: () => reads, restore: () => spy.mockRestore() };
  };

  test('the rows are masked on the export thread, never on the loop that answers requests, and the file is whole and masked', async () => {
    const cookie = await signIn('kim-whole');
    const onLoop = [jest.spyOn(exportCells, 'textCell'), jest.spyOn(exportCells, 'jsonCell'), jest.spyOn(exportCells, 'freeTextCell')];
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/console/exports/events.csv`, { headers: { cookie, host: HOST } });
      expect(answer.status).toBe(200);
      const file = await answer.text();
      expect(new Set(file.match(/PGBIG\d{5}/g)).size).toBe(EVENTS);
      expect(file.includes('010-1234-0007')).toBe(false);
      expect(file.includes('***-****-0007')).toBe(true);
      for (const spy of onLoop) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of onLoop) spy.mockRestore();
    }
  }, 120_000);

  test("another operator's page is answered while a download waits for its next page", async () => {
    const cookie = await signIn('kim-latch');
    let release: () => void = () => undefined;
    const latch = new Promise<void>((resolve) => (release = resolve));
    let waiting: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (waiting = resolve));
    const reads = countReads(20, async (n) => {
      if (n === 2) {
        waiting();
        await latch;
      }
    });
    try {
      const download = fetch(`http://127.0.0.1:${port}/console/exports/events.csv`, { headers: { cookie, host: HOST } }).then((answer) => answer.text());
      await reached;
      const page = await fetch(`http://127.0.0.1:${port}/console/orders`, { headers: { cookie, host: HOST } });
      expect(page.status).toBe(200);
      release();
      const file = await download;
      expect(new Set(file.match(/PGBIG\d{5}/g)).size).toBe(EVENTS);
    } finally {
      reads.restore();
    }
  }, 120_000);

  test('a client that stops reading is given up after the stall limit: its socket is destroyed and the export reads no more', async () => {
    const cookie = await signIn('kim-stall');
    const reads = countReads(5);
    try {
      const before = serverSockets.length;
      const client = connect(port, '127.0.0.1');
      await once(client, 'connect');
      // Never read: the client's and the kernel's buffers fill, then the response's.
      client.pause();
      client.write(`GET /console/exports/events.csv HTTP/1.1\r\nHost: ${HOST}\r\nCookie: ${cookie}\r\n\r\n`);
      const serverSide = await eventually(() => serverSockets[before], 10_000, 'the server side of the download');
      await once(serverSide, 'close');
      const readsAtClose = reads.reads();
      const audited = await eventually(async () => (await exportsAudited()).find((row) => row.actor.includes('kim-stall')), 30_000, 'the download audited');
      expect(audited.detail).toContain('client disconnected');
      const rows = Number(/; (\d+) rows;/.exec(audited.detail ?? '')?.[1]);
      expect(rows).toBeLessThan(listed);
      expect(reads.reads()).toBe(readsAtClose);
      expect(readsAtClose).toBeLessThan(Math.ceil(listed / 5));
      client.destroy();
    } finally {
      reads.restore();
    }
  }, 120_000);
});
