import request from 'supertest';
import { createAdminApp } from '../../src/admin/admin-app';
import { loadConfig } from '../../src/config/env';
import { importGatewayFileWith } from '../../src/console/import-gateway-file';
import type { Stores } from '../../src/ledger/projector/open-stores';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import type { BookedTransaction } from '../../src/sandbox/gateway-books';
import { portalFile } from '../../src/sandbox/portal-files';
import { transactionList } from '../../src/sandbox/portal-lists';
import { newSecret, secretHash } from '../../src/store/operator-credentials';
import { describePostgres } from '../store/pg-test-database';
import { ADMIN_TOKEN, HOST, ORIGIN, consoleSessions, csrfIn } from './console-harness';
import { replicaStores } from './replica-stores';

const MALL = 'T0001234';
const DAY = '2026-11-20';

const booked = (pgCno: string, amount: number, hour: number): BookedTransaction => ({
  kind: 'payment', mallId: MALL, pgCno, cancelPgCno: null, shopOrderNo: `ORD-${pgCno}`, approvalNo: null, amount, remainingAfter: null,
  method: '신용카드', at: new Date(Date.UTC(2026, 10, 20, hour - 9)).toISOString(),
});

/** A console replica as operator-side.ts assembles it, over its own connection pool to the shared schema. */
function replicaOver(stores: Stores) {
  const { store, ledger, reconciliation } = stores;
  return createAdminApp({
    store,
    publisher: { kind: 'none', publish: async () => undefined, status: () => ({ connected: false, detail: 'no relay in this test' }), close: async () => undefined },
    relay: null, metrics: createMetrics(), isShuttingDown: () => false,
    console: {
      store, ledger, reconciliation, config: loadConfig({ TRUST_PROXY: '127.0.0.1,::1' }), logger: createLogger({ level: 'error', silent: true }),
      adminToken: ADMIN_TOKEN, sessions: consoleSessions(store), now: () => new Date(), importGatewayFile: importGatewayFileWith({ reconciliation, ledger }),
    },
  });
}

describePostgres('an upload staged on one console replica is previewed and imported on the other (PostgreSQL)', () => {
  const replicas = replicaStores();

  test('replica A stages the file, replica B shows its preview, saves a mapping A then uses, and imports it', async () => {
    const { a, b } = replicas();
    const replicaA = replicaOver(a);
    const replicaB = replicaOver(b);
    const token = newSecret();
    await a.store.addOperator({ name: 'kim', role: 'operator', tokenHash: secretHash(token), createdAt: new Date().toISOString() });
    const signIn = await request(replicaA).post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token }).expect(303);
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const csrf = csrfIn((await request(replicaA).get('/console/reconcile/upload').set('Host', HOST).set('Cookie', cookie).expect(200)).text);

    const bytes = await portalFile(transactionList([booked('PG-A', 15_000, 9), booked('PG-B', 8_000, 10)]), { mallId: MALL, from: DAY, to: DAY }, 'csv');
    const staged = await request(replicaA).post('/console/reconcile/upload').set('Host', HOST).set('Origin', ORIGIN).set('Cookie', cookie)
      .field('_csrf', csrf).field('mall', MALL).field('kind', 'detect').attach('file', bytes, 'list.csv').expect(303);
    const location = staged.headers.location!;
    const preview = await request(replicaB).get(location).set('Host', HOST).set('Cookie', cookie).expect(200);
    expect(preview.text).toContain('₩15,000');
    expect(preview.text).toContain('the built-in header names');

    const mapping = { 'map.pgCno': 'PG거래번호', 'map.shopOrderNo': '주문번호', 'map.amount': '거래금액', 'map.at': '거래일시', 'map.status': '거래상태' };
    await request(replicaB).post(`${location}/mapping`).set('Host', HOST).set('Origin', ORIGIN).set('Cookie', cookie).type('form').send({ _csrf: csrf, ...mapping }).expect(303);
    expect((await request(replicaA).get(location).set('Host', HOST).set('Cookie', cookie).expect(200)).text).toContain('the mapping saved for this mall');

    const imported = await request(replicaB).post(`${location}/import`).set('Host', HOST).set('Origin', ORIGIN).set('Cookie', cookie)
      .type('form').send({ _csrf: csrf, kind: 'transactions', ...mapping }).expect(303);
    expect(imported.headers.location).toContain(`day=${DAY}&mall=${MALL}`);
    const [stored] = await a.reconciliation.listImports({ day: DAY, mallId: MALL, limit: 5 });
    expect(stored).toMatchObject({ fileName: 'list.csv', rowCount: 2 });
    await request(replicaA).get(location).set('Host', HOST).set('Cookie', cookie).expect(404);
  }, 90_000);
});
