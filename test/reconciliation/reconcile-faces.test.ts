import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import type { BookedTransaction } from '../../src/sandbox/gateway-books';
import { portalFile } from '../../src/sandbox/portal-files';
import { settlementStatement, transactionList } from '../../src/sandbox/portal-lists';
import { EXIT } from '../../src/exit-codes';
import { cancelled, MALL, minute, paid } from '../store/ledger-entries';
import { runCliCaptured } from '../cli/seeded-receiver';
import { API_TOKEN, startLedgerApp, type LedgerApp } from '../ledger/ledger-app-harness';

/** The fixtures' notifications are dated 2026-11-21 12:00 KST and the minutes after. */
const DAY = '2026-11-21';

const booked = (o: Omit<Partial<BookedTransaction>, 'at'> & { pgCno: string; shopOrderNo: string; amount: number; at: number }): BookedTransaction => ({
  kind: 'payment', mallId: MALL, cancelPgCno: null, approvalNo: null, remainingAfter: null, method: '신용카드', ...o, at: minute(o.at),
});

/** The portal's list of the day: a payment matched, one never notified, a cancel matched. */
const theList = () => transactionList([
  booked({ pgCno: 'PG-A', shopOrderNo: 'ORD-A', amount: 15_000, at: 1 }),
  booked({ pgCno: 'PG-B', shopOrderNo: 'ORD-B', amount: 8_000, at: 2 }),
  booked({ kind: 'cancel', pgCno: 'PG-A', cancelPgCno: 'CX-A', shopOrderNo: 'ORD-A', amount: 5_000, remainingAfter: 10_000, at: 3 }),
]);

describe('noti-receiver reconcile, on a real .xlsx from the portal, read on its own thread', () => {
  let dir: string;
  let stores: Stores;
  let url: string;
  const cli = (...args: string[]) => runCliCaptured(args, { DATABASE_URL: url, USER: 'ops-lead' });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-reconcile-cli-'));
    url = `sqlite:${join(dir, 'receiver.db')}`;
    stores = await openStores(url, {});
    await stores.store.record(paid('ORD-A', 'PG-A', 15_000, 1));
    await stores.store.record(cancelled('ORD-A', 'PG-A', 'CX-A', 5_000, 3, 10_000));
    await stores.store.record(paid('ORD-FORGED', 'PG-F', 50_000, 4));
    await stores.ledger.caughtUp(10_000);
  });
  afterEach(async () => {
    await stores.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('import prints the counts, the days and the differences; again, nothing changes; list shows the day as money', async () => {
    const file = join(dir, 'transactions-20261121.xlsx');
    writeFileSync(file, await portalFile(theList(), { mallId: MALL, from: DAY, to: DAY }, 'xlsx'));
    const imported = await cli('reconcile', 'import', file, '--mall', MALL);
    expect(imported).toMatchObject({ code: 0 });
    expect(imported.stdout).toMatch(/^imported gwi_[0-9a-f]{32} \(transactions-20261121\.xlsx\) for mall T0001234\n/);
    expect(imported.stdout).toContain(`days covered: ${DAY} (KST)`);
    expect(imported.stdout).toContain('rows: 3 (2 payment(s), 1 cancel(s))');
    expect(imported.stdout).toContain('differences: notification_missing 1, not_in_gateway_list 1');

    const again = await cli('reconcile', 'import', file, '--mall', MALL);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^already imported as gwi_\w+ \(transactions-20261121\.xlsx\) by ops-lead \(cli\) at .* KST: nothing changed\n/);
    expect((await cli('reconcile', 'list', '--json')).json<{ imports: unknown[] }>().imports).toHaveLength(1);

    const day = await cli('reconcile', 'list', '--day', DAY);
    expect(day.code).toBe(0);
    expect(day.stdout).toContain('listed   payments 2 × ₩23,000, cancels 1 × ₩5,000');
    expect(day.stdout).toContain('matched  payments 1 × ₩15,000, cancels 1 × ₩5,000');
    expect(day.stdout).toMatch(/notification_missing\s+ORD-B\s+PG-B\s+₩8,000/);
    expect(day.stdout).toContain('거래관리 → 노티조회');
    const audit = await stores.store.listAudit(10);
    expect(audit.filter((a) => a.action === 'imported gateway list')).toEqual([expect.objectContaining({ actor: 'ops-lead (cli)', subject: expect.stringMatching(/^gwi_/) })]);
  });

  test('a settlement statement prints its rows and the differences the ledger found in it; reconcile list shows them on the day', async () => {
    const file = join(dir, 'settlement-20261121.xlsx');
    // The statement settles the forged order's payment for less than was notified; the rest as notified.
    writeFileSync(file, await portalFile(settlementStatement([
      booked({ pgCno: 'PG-A', shopOrderNo: 'ORD-A', amount: 15_000, at: 1 }),
      booked({ kind: 'cancel', pgCno: 'PG-A', cancelPgCno: 'CX-A', shopOrderNo: 'ORD-A', amount: 5_000, at: 3 }),
      booked({ pgCno: 'PG-F', shopOrderNo: 'ORD-FORGED', amount: 5_000, at: 4 }),
    ]), { mallId: MALL, from: DAY, to: DAY }, 'xlsx'));
    const imported = await cli('reconcile', 'import', file, '--mall', MALL);
    expect(imported).toMatchObject({ code: 0 });
    expect(imported.stdout).toContain('rows: 3 (2 payment(s), 1 cancel(s)); orders matched: 2');
    expect(imported.stdout).toContain('differences: settlement_amount_differs 1');
    const day = await cli('reconcile', 'list', '--day', DAY);
    expect(day.stdout).toMatch(/settlement_amount_differs\s+ORD-FORGED\s+PG-F\s+₩5,000\s+₩50,000/);
  });

  test('a file that cannot be read whole is refused with its reasons and exit 6; a missing mall is a usage error', async () => {
    const file = join(dir, 'broken.csv');
    writeFileSync(file, '거래일시,주문번호\n2026-11-21 12:01:00,ORD-A\n');
    const refused = await cli('reconcile', 'import', file, '--mall', MALL);
    expect(refused.code).toBe(EXIT.fileRefused);
    expect(refused.stderr).toContain('was refused; nothing was imported');
    expect(refused.stderr).toMatch(/missing_column/);
    expect((await cli('reconcile', 'list', '--json')).json<{ imports: unknown[] }>().imports).toEqual([]);
    expect((await cli('reconcile', 'import', file)).code).toBe(EXIT.usage);
    expect((await cli('reconcile', 'import', join(dir, 'nope.xlsx'), '--mall', MALL)).code).toBe(EXIT.notFound);
  });
});

describe('POST /v1/reconciliation/imports and GET /v1/reconciliation/days/<day>', () => {
  let app: LedgerApp;
  beforeEach(async () => {
    app = await startLedgerApp();
    await app.stores.store.record(paid('ORD-A', 'PG-A', 15_000, 1));
    await app.stores.store.record(cancelled('ORD-A', 'PG-A', 'CX-A', 5_000, 3, 10_000));
  });
  afterEach(() => app.close());

  const post = (body: Buffer, type: string, query = `mall=${MALL}&fileName=list.csv`) =>
    request(app.apiApp).post(`/v1/reconciliation/imports?${query}`).set('Authorization', `Bearer ${API_TOKEN}`).set('Content-Type', type).send(body);

  test('201 with the summary, 200 for the same file again, 422 with the problems, 415 and 413 before reading', async () => {
    const csv = await portalFile(theList(), { mallId: MALL, from: DAY, to: DAY }, 'csv');
    const created = await post(csv, 'text/csv').expect(201);
    expect(created.body).toMatchObject({ alreadyImported: false, import: { mallId: MALL, firstDay: DAY, lastDay: DAY, rowCount: 3, fileName: 'list.csv' }, differences: { notification_missing: 1 } });
    expect((await post(csv, 'text/csv').expect(200)).body).toMatchObject({ alreadyImported: true, import: { id: created.body.import.id } });
    expect((await post(Buffer.from('a,b\n1,2\n'), 'text/csv').expect(422)).body).toMatchObject({ problems: [expect.objectContaining({ code: expect.any(String) })] });
    await post(csv, 'application/json').expect(415);
    await request(app.apiApp).post(`/v1/reconciliation/imports?mall=${MALL}&fileName=x.csv`).set('Authorization', `Bearer ${API_TOKEN}`)
      .set('Content-Type', 'text/csv').set('Content-Length', String(64 * 1024 * 1024)).send('').expect(413);

    const day = (await app.api.get(`/v1/reconciliation/days/${DAY}`).expect(200)).body as { days: Array<Record<string, unknown>> };
    expect(day.days).toEqual([expect.objectContaining({
      mallId: MALL, currency: 'KRW',
      rows: { payments: { count: 2, amount: 23_000 }, cancels: { count: 1, amount: 5_000 } },
      matched: { payments: { count: 1, amount: 15_000 }, cancels: { count: 1, amount: 5_000 } },
    })]);
    await app.api.get('/v1/reconciliation/days/2026-13-01').expect(400);
  });
});
