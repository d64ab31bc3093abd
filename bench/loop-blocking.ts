import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { approvalNotification, changeNotification } from '../src/simulator/notification-builders';
import { REPO_ROOT } from './processes';

/**
 * The service's own compiled modules (dist/, `npm run build`), as it runs: its worker threads,
 * migrations and assets are found beside them. LOOP_BLOCKING_DIST: another build's dist/ (the one
 * before a change, to compare in the same conditions).
 */
const DIST = process.env.LOOP_BLOCKING_DIST ?? join(REPO_ROOT, 'dist');
const fromDist = <T>(path: string): T => require(join(DIST, path)) as T;
const { createAdminApp } = fromDist<typeof import('../src/admin/admin-app')>('admin/admin-app.js');
const { startInternalApi } = fromDist<typeof import('../src/api/start-internal-api')>('api/start-internal-api.js');
const { createApp } = fromDist<typeof import('../src/app')>('app.js');
const { loadConfig } = fromDist<typeof import('../src/config/env')>('config/env.js');
const { createSessions } = fromDist<typeof import('../src/console/sessions')>('console/sessions.js');
const { openStores } = fromDist<typeof import('../src/ledger/projector/open-stores')>(['ledger/projector', 'ledger-projector'].map((folder) => `${folder}/open-stores.js`).find((path) => existsSync(join(DIST, path)))!);
const { createLogger } = fromDist<typeof import('../src/observability/logger')>('observability/logger.js');
const { createMetrics } = fromDist<typeof import('../src/observability/metrics')>('observability/metrics.js');
const { openFilePublisher } = fromDist<typeof import('../src/publishers/file-publisher')>('publishers/file-publisher.js');
const { startRelay } = fromDist<typeof import('../src/relay/relay')>('relay/relay.js');

/**
 * The longest single block of the event loop while the console, the internal API or the relay
 * does one piece of work on its largest input, in one process with the gateway's listener (as
 * the service runs): whatever that block is, a gateway POST arriving then waits as long for its ack.
 * Each figure is the longest delay a 1 ms timer saw (perf_hooks' monitorEventLoopDelay) over
 * each of LOOP_BLOCKING_ROUNDS requests of the page (after one unmeasured), minus that 1 ms: the
 * least of them (what the page costs every time; on a shared machine a thread the OS set aside
 * for a moment looks like a block too) and the greatest.
 */
const ROUNDS = Number(process.env.LOOP_BLOCKING_ROUNDS ?? 5);
const CANCELS = Number(process.env.LOOP_BLOCKING_CANCELS ?? 2000);
const ADMIN_TOKEN = 'loop-blocking-bench-token-0123456789';
const API_TOKEN = 'loop-blocking-api-token-0123456789abcdef';
const GATEWAY_IP = '61.33.205.151';

const kib = (unit: string, size: number) => unit.repeat(Math.ceil((size * 1024) / unit.length)).slice(0, size * 1024);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loop-blocking-'));
  const eventsFile = join(dir, 'events.ndjson');
  const config = loadConfig({
    TRUST_PROXY: '127.0.0.1,::1', DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`, QUEUE_URL: `file:${eventsFile}`,
    ADMIN_TOKEN, API_TOKEN, PORT: '0', ADMIN_PORT: '0', API_PORT: '0',
  });
  const logger = createLogger({ level: 'error', silent: true });
  const metrics = createMetrics();
  const ledgerSettings = { requireExpectation: false, graceSeconds: 2100 };

  // Seeded with the ledger's projector off: it folds an order again for each of its notifications
  // (issue 37's own subject, measured elsewhere); started afterwards, it takes them in batches.
  console.error('seeding…');
  const publisher = await openFilePublisher(eventsFile);
  const seeding = await openStores(config.DATABASE_URL, { ledger: ledgerSettings, projector: false });
  const seedGateway = createApp({ config, store: seeding.store, logger, metrics }).listen(0, '127.0.0.1');
  await once(seedGateway, 'listening');
  const gatewayUrl = `http://127.0.0.1:${(seedGateway.address() as AddressInfo).port}${config.NOTIFY_PATH}`;
  const post = async (body: unknown) => {
    const answer = await fetch(gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', 'x-forwarded-for': GATEWAY_IP }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    await answer.text();
    return answer.status;
  };
  const longField = approvalNotification({ shopValue1: kib('a4111111111111111', 40) });
  await post(longField);
  const manyFields = approvalNotification(Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`shopValue${i + 10}`, `홍길동 010-1234-${String(i).padStart(4, '0')} 4111 1111 1111 1111`])));
  await post(manyFields);
  await post(JSON.stringify({ notiType: 'nonsense', shopValue1: kib('4111 1111 1111 1111 ', 60) }));
  const order = approvalNotification({ amount: String(CANCELS * 10 + 1000) });
  await post(order);
  for (let i = 0; i < CANCELS; i++) await post(changeNotification({ pgCno: order.pgCno, shopOrderNo: order.shopOrderNo, amount: '10', cancelAmount: '10', cancelRemainAmount: String((CANCELS - i - 1) * 10 + 1000) }));
  for (let i = 0; i < 300; i++) await post({ ...approvalNotification({ pgCno: longField.pgCno, shopOrderNo: longField.shopOrderNo }), shopValue2: `again ${i}` });
  await Promise.all(Array.from({ length: 2000 }, (_, i) => seeding.store.recordAudit({ at: new Date().toISOString(), actor: 'admin', action: 'requeued', subject: `evt_${i}`, detail: `note ${i} `.repeat(20) })));
  seedGateway.close();

  // The relay: the backlog just seeded (2,300 events, several of 40-60 KiB) in its batches, with
  // nothing else running (the projector is off).
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const relay = startRelay({ store: seeding.store, publisher, logger, metrics });
  while ((await seeding.store.backlog(Date.now())).pending > 0) await new Promise((r) => setTimeout(r, 20));
  histogram.disable();
  const relayBlock = histogram.max / 1e6 - 1;
  await relay.stop(1000);
  await seeding.store.close();

  const { store, commands, ledger, kind } = await openStores(config.DATABASE_URL, { ledger: ledgerSettings });
  const sessions = createSessions({ store, now: () => Date.now(), idleMinutes: 30, bootstrapToken: ADMIN_TOKEN });
  const consoleDeps = { store, commands, ledger, config, logger, adminToken: ADMIN_TOKEN, sessions, now: () => new Date() };
  const admin = createAdminApp({ store, publisher, relay: null, metrics, isShuttingDown: () => false, console: consoleDeps, ledger }).listen(0, '127.0.0.1');
  await once(admin, 'listening');
  const api = await startInternalApi({ config, commands, ledger, storeKind: kind, logger, metrics });
  const adminUrl = `http://127.0.0.1:${(admin.address() as AddressInfo).port}`;
  const apiUrl = `http://127.0.0.1:${api.port}`;
  const eventIdOf = async (shopOrderNo: string) => (await store.searchEvents({ query: shopOrderNo, limit: 1, offset: 0 }))[0]!.eventId;
  // The projector catches up before the ledger's pages are read.
  const cancelsOf = async () => {
    try {
      return (await ledger.getOrder({ mallId: order.mallId, shopOrderNo: order.shopOrderNo }))?.cancels.length ?? 0;
    } catch {
      return 0; // still catching up (LedgerCatchingUp)
    }
  };
  while ((await cancelsOf()) < CANCELS) await new Promise((r) => setTimeout(r, 200));

  const signIn = await fetch(`${adminUrl}/console/sign-in`, { method: 'POST', redirect: 'manual', headers: { origin: adminUrl, 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${ADMIN_TOKEN}` });
  const cookie = String(signIn.headers.get('set-cookie')).split(';')[0]!;
  const rejection = (await store.listRejections(1))[0]!;
  const conflict = (await store.listConflicts(1))[0]!;
  const orderPath = `${encodeURIComponent(order.mallId)}/${encodeURIComponent(order.shopOrderNo)}`;

  const pages: Array<[string, string, Record<string, string>]> = [
    ['console: event page, 40 KiB field', `${adminUrl}/console/events/${await eventIdOf(longField.shopOrderNo)}`, { cookie }],
    ['console: event page, 900 fields', `${adminUrl}/console/events/${await eventIdOf(manyFields.shopOrderNo)}`, { cookie }],
    ['console: event page, Korean', `${adminUrl}/console/events/${await eventIdOf(longField.shopOrderNo)}`, { cookie, 'accept-language': 'ko' }],
    ['console: rejection page, 60 KiB body', `${adminUrl}/console/rejections/${rejection.id}`, { cookie }],
    ['console: rejections list', `${adminUrl}/console/rejections`, { cookie }],
    ['console: conflict page (40 KiB field)', `${adminUrl}/console/conflicts/${conflict.id}`, { cookie }],
    ['console: conflicts list (300)', `${adminUrl}/console/conflicts`, { cookie }],
    ['console: events list', `${adminUrl}/console/events`, { cookie }],
    ['console: orders page', `${adminUrl}/console/orders`, { cookie }],
    [`console: order page, ${CANCELS} cancels`, `${adminUrl}/console/orders/${orderPath}`, { cookie }],
    ['console: audit page', `${adminUrl}/console/audit`, { cookie }],
    ['console: overview', `${adminUrl}/console`, { cookie }],
    [`api: order, ${CANCELS} cancels`, `${apiUrl}/v1/orders/${orderPath}`, { authorization: `Bearer ${API_TOKEN}` }],
    ['api: orders, limit 500', `${apiUrl}/v1/orders?limit=500`, { authorization: `Bearer ${API_TOKEN}` }],
    ['api: discrepancies, limit 500', `${apiUrl}/v1/discrepancies?limit=500&open=false`, { authorization: `Bearer ${API_TOKEN}` }],
    ['api: commands, limit 500', `${apiUrl}/v1/commands?limit=500`, { authorization: `Bearer ${API_TOKEN}` }],
  ];

  const rows: string[][] = [['relay: draining the backlog', '', '', '', relayBlock.toFixed(1)]];
  for (const [name, url, headers] of pages) {
    const blocks: number[] = [];
    let status = 0;
    let bytes = 0;
    // One request first, unmeasured: the first call of a page compiles its code.
    await (await fetch(url, { headers, redirect: 'manual' })).arrayBuffer();
    for (let round = 0; round < ROUNDS; round++) {
      histogram.reset();
      histogram.enable();
      const answer = await fetch(url, { headers, redirect: 'manual' });
      bytes = (await answer.arrayBuffer()).byteLength;
      status = answer.status;
      histogram.disable();
      blocks.push(Math.max(0, histogram.max / 1e6 - 1));
    }
    const longest = Math.max(...blocks);
    rows.push([name, String(status), `${Math.round(bytes / 1024)} KiB`, Math.min(...blocks).toFixed(1), longest.toFixed(1)]);
    console.error(`${name}: ${longest.toFixed(1)} ms`);
  }

  console.log(`Longest single event-loop block (ms) of each of ${ROUNDS} requests: the least and the greatest\n`);
  console.log('| work | status | size | every time (ms) | worst (ms) |\n|---|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);

  admin.closeAllConnections();
  admin.close();
  await api.stop(1000);
  await publisher.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
