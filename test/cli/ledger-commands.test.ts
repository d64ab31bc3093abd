import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OrderRecord } from '../../src/ledger/fold/order-record';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { runCli } from '../../src/cli/program';
import { cancelled, MALL, paid } from '../store/ledger-entries';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { runCliCaptured } from './seeded-receiver';

interface Database {
  url: string;
  stores: Stores;
  cleanup(): Promise<void>;
}

/** `noti-receiver orders|discrepancies|ledger …` against a database a receiver is serving. */
function ledgerCommands(open: () => Promise<Database>): void {
  let db: Database;
  const cli = (...args: string[]) => runCliCaptured(args, { DATABASE_URL: db.url, USER: 'ops-lead' });
  beforeEach(async () => {
    db = await open();
  });
  afterEach(async () => db.cleanup());

  test('orders show prints the record (--json as stored), asks for --mall when two malls have the number, and exits 1 for an unknown order', async () => {
    await db.stores.store.record(paid('ORD-CLI-1', 'PGCLI1', 30000));
    const shown = await cli('orders', 'show', 'ORD-CLI-1');
    expect(shown).toMatchObject({ code: 0, stderr: expect.stringMatching(/^noti-receiver: reading (sqlite|postgres):\S+ \(store [0-9a-f]{8}\)\n$/) });
    expect(shown.stdout).toMatch(/^ORD-CLI-1 \(mall T0001234\): paid\n/);
    // No expectation names a currency: the default one (LEDGER_DEFAULT_CURRENCY, KRW), said so.
    expect(shown.stdout).toContain('approved ₩30,000  cancelled ₩0  remaining ₩30,000  deposited ₩0');
    expect(shown.stdout).toContain('expected   - (amounts in KRW, LEDGER_DEFAULT_CURRENCY: no expectation names a currency)');
    expect(shown.stdout).toMatch(/^payment {4}2026-11-21 12:00:00 KST {2}PGCLI1 {2}₩30,000 {2}evt_/m);
    expect((await cli('orders', 'show', 'ORD-CLI-1', '--json')).json()).toEqual(await db.stores.ledger.getOrder({ mallId: MALL, shopOrderNo: 'ORD-CLI-1' }));

    await db.stores.ledger.putExpectation({ mallId: 'T0009999', shopOrderNo: 'ORD-CLI-1' }, { amount: 500, currency: 'KRW', method: 'card', expiresAt: null }, new Date().toISOString());
    const ambiguous = await cli('orders', 'show', 'ORD-CLI-1');
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('exists in malls T0001234, T0009999: name one with --mall');
    expect((await cli('orders', 'show', 'ORD-CLI-1', '--mall', 'T0009999')).stdout).toMatch(/^ORD-CLI-1 \(mall T0009999\): awaiting_payment/);
    expect((await cli('orders', 'show', 'NOPE')).code).toBe(1);
  });

  test('orders list: newest first, amounts as money in each order\'s currency, --status, --from/--to days in Korea, a page at a time', async () => {
    await db.stores.store.record(paid('ORD-LIST-1', 'PGLIST1', 12000, 0));
    await db.stores.ledger.putExpectation({ mallId: MALL, shopOrderNo: 'ORD-LIST-2' }, { amount: 1203, currency: 'USD', method: 'card', expiresAt: null }, new Date().toISOString());
    await db.stores.store.record(paid('ORD-LIST-2', 'PGLIST2', 1203, 1));
    await db.stores.store.record(paid('ORD-LIST-3', 'PGLIST3', 5000, 2));
    await db.stores.store.record(paid('ORD-LIST-3', 'PGLIST3B', 5000, 3));

    const listed = await cli('orders', 'list');
    expect(listed).toMatchObject({ code: 0, stderr: expect.stringMatching(/^noti-receiver: reading (sqlite|postgres):\S+ \(store [0-9a-f]{8}\)\n$/) });
    const rows = listed.stdout.trimEnd().split('\n').slice(2).map((line) => line.split(/\s{2,}/));
    expect(rows.map((row) => row.slice(0, 7))).toEqual([
      ['ORD-LIST-3', 'T0001234', 'discrepancy', '-', '₩10,000', '₩0', '₩10,000'],
      ['ORD-LIST-2', 'T0001234', 'paid', '$12.03', '$12.03', '$0.00', '$12.03'],
      ['ORD-LIST-1', 'T0001234', 'paid', '-', '₩12,000', '₩0', '₩12,000'],
    ]);
    expect(rows[0]![7]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d KST$/);
    // The mall's default currency where no expectation names one.
    expect((await runCliCaptured(['orders', 'list', '--status', 'paid'], { DATABASE_URL: db.url, LEDGER_DEFAULT_CURRENCY: 'USD' })).stdout).toMatch(/ORD-LIST-1\s+T0001234\s+paid\s+-\s+\$120\.00/);
    expect((await cli('orders', 'list', '--status', 'discrepancy')).stdout).not.toContain('ORD-LIST-1');

    // --json keeps the records as stored, raw integers in minor units.
    const json = (await cli('orders', 'list', '--json', '--limit', '2')).json<{ orders: OrderRecord[]; next: number }>();
    expect(json.orders.map((o) => [o.shopOrderNo, o.approved])).toEqual([['ORD-LIST-3', 10000], ['ORD-LIST-2', 1203]]);
    const firstPage = await cli('orders', 'list', '--limit', '2');
    expect(firstPage.stdout).toContain(`more: add --after ${json.next}`);
    const rest = (await cli('orders', 'list', '--json', '--limit', '2', '--after', String(json.next))).json<{ orders: OrderRecord[]; next: number | null }>();
    expect(rest).toEqual({ orders: [expect.objectContaining({ shopOrderNo: 'ORD-LIST-1' })], next: null });

    // A record's last change is its last fact's time: the fixtures' payments on 2026-11-21 (KST), ORD-LIST-2's expectation now.
    const onThe21st = (await cli('orders', 'list', '--json', '--from', '2026-11-21', '--to', '2026-11-21')).json<{ orders: OrderRecord[] }>();
    expect(onThe21st.orders.map((o) => o.shopOrderNo)).toEqual(['ORD-LIST-3', 'ORD-LIST-1']);
    expect((await cli('orders', 'list', '--to', '2026-11-20')).stdout).toBe('no orders match\n');
    expect((await cli('orders', 'list', '--json', '--from', '2026-11-22')).json<{ orders: OrderRecord[] }>().orders.map((o) => o.shopOrderNo)).toEqual(['ORD-LIST-2']);
    const kstToday = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
    expect(await cli('orders', 'list', '--from', kstToday, '--to', '2026-11-21')).toMatchObject({ code: 2, stderr: expect.stringContaining('--from must be a day on or before --to') });
    expect(await cli('orders', 'list', '--from', '2026-02-30')).toMatchObject({ code: 2, stderr: expect.stringContaining('--from: 2026-02-30 is not a day: 2026-02 has days 01 to 28') });
    // The service's own schema: a currency that is not an ISO 4217 code stops it (and the CLI), naming the variable.
    expect(await runCliCaptured(['orders', 'list'], { DATABASE_URL: db.url, LEDGER_DEFAULT_CURRENCY: 'won' })).toMatchObject({ code: 2, stderr: expect.stringContaining('LEDGER_DEFAULT_CURRENCY') });
  });

  test("events list names the order of the ledger's own events (order.*, ledger.*), read from the event", async () => {
    await db.stores.store.record(paid('ORD-EVT-1', 'PGEVT1', 30000));
    // `orders show` waits for the ledger to have applied what is stored.
    expect((await cli('orders', 'show', 'ORD-EVT-1')).code).toBe(0);
    const rows = (await cli('events', 'list', '--json')).json<Array<{ type: string; shopOrderNo: string | null }>>();
    expect(rows.find((row) => row.type === 'order.status_changed')).toMatchObject({ shopOrderNo: 'ORD-EVT-1' });
    const table = (await cli('events', 'list', '--type', 'order.status_changed')).stdout.split('\n');
    expect(table[2]).toMatch(/order\.status_changed\s+\S*\s+ORD-EVT-1\s/);
    // events show of the same event names its order as the list did, in the table and in --json.
    const { id } = rows.find((row) => row.type === 'order.status_changed') as unknown as { id: string };
    expect((await cli('events', 'show', id)).stdout).toMatch(/^shopOrderNo\s+ORD-EVT-1$/m);
    expect((await cli('events', 'show', id, '--json')).json<{ shopOrderNo: string | null }>()).toMatchObject({ shopOrderNo: 'ORD-EVT-1' });
  });

  test('discrepancies list shows the open ones; resolve closes one with a note, audited under the OS user; --all shows it resolved', async () => {
    await db.stores.store.record(paid('ORD-CLI-2', 'PGCLI2A', 10000, 0));
    await db.stores.store.record(paid('ORD-CLI-2', 'PGCLI2B', 10000, 1));
    const listed = await cli('discrepancies', 'list', '--json');
    const [open] = listed.json<Array<{ id: string; kind: string; shopOrderNo: string }>>();
    expect(open).toMatchObject({ kind: 'duplicate_payment', shopOrderNo: 'ORD-CLI-2' });
    expect((await cli('discrepancies', 'list')).stdout).toMatch(new RegExp(`${open!.id}\\s+duplicate_payment\\s+T0001234\\s+ORD-CLI-2\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d KST\\s+-\\s+-\\s+payments 2, expected -, largestPayment ₩10,000, remaining ₩20,000$`, 'm'));

    expect((await cli('discrepancies', 'resolve', open!.id)).code).toBe(2);
    const resolved = await cli('discrepancies', 'resolve', open!.id, '--note', 'refunded PGCLI2B by hand');
    expect(resolved).toMatchObject({ code: 0, stdout: `resolved ${open!.id}; order ORD-CLI-2 is now paid\n` });
    expect((await cli('discrepancies', 'list')).stdout).toBe('no open discrepancies\n');
    const all = (await cli('discrepancies', 'list', '--all', '--json')).json<Array<{ resolvedBy: string; note: string }>>();
    expect(all).toEqual([expect.objectContaining({ resolvedBy: 'ops-lead (cli)', note: 'refunded PGCLI2B by hand' })]);
    expect((await db.stores.store.listAudit(5, 0))[0]).toMatchObject({ action: 'resolved discrepancy', subject: open!.id, actor: 'ops-lead (cli)' });
    expect((await cli('discrepancies', 'resolve', 'dsc_nothing', '--note', 'x')).code).toBe(1);
  });

  test('a resolved amount_mismatch leaves the order underpaid: resolve says so, and orders list --status underpaid finds it', async () => {
    await db.stores.ledger.putExpectation({ mallId: MALL, shopOrderNo: 'ORD-CLI-SHORT' }, { amount: 12000, currency: 'KRW', method: 'card', expiresAt: null }, new Date().toISOString());
    await db.stores.store.record(paid('ORD-CLI-SHORT', 'PGCLISHORT', 1200, 0));
    const [open] = (await cli('discrepancies', 'list', '--json')).json<Array<{ id: string; kind: string }>>();
    expect(open).toMatchObject({ kind: 'amount_mismatch' });
    expect(await cli('discrepancies', 'resolve', open!.id, '--note', 'payment cancelled')).toMatchObject({ code: 0, stdout: `resolved ${open!.id}; order ORD-CLI-SHORT is now underpaid\n` });
    expect((await cli('orders', 'list', '--status', 'underpaid')).stdout).toMatch(/ORD-CLI-SHORT\s+T0001234\s+underpaid/);
    expect((await cli('orders', 'list', '--status', 'paid')).stdout).not.toContain('ORD-CLI-SHORT');
  });

  test('ledger rebuild recomputes every order and changes none on a consistent store', async () => {
    for (let i = 0; i < 3; i++) await db.stores.store.record(paid(`ORD-CLI-R${i}`, `PGCLIR${i}`, 1000, i));
    const before = await db.stores.ledger.getOrder({ mallId: MALL, shopOrderNo: 'ORD-CLI-R1' });
    expect(await cli('ledger', 'rebuild')).toMatchObject({
      code: 0,
      stdout: "grace period 2100 s (the default: LEDGER_GRACE_SECONDS is not set); pass the serving receiver's with --grace-seconds if it differs\nrecomputed 3 order(s); 0 record(s) changed\n",
    });
    expect((await cli('ledger', 'rebuild', '--json')).json()).toEqual({ orders: 3, changed: 0, graceSeconds: 2100, graceFrom: 'default' });
    expect(await db.stores.ledger.getOrder({ mallId: MALL, shopOrderNo: 'ORD-CLI-R1' })).toEqual(before as OrderRecord);
  });

  test("ledger rebuild computes with --grace-seconds when given, else LEDGER_GRACE_SECONDS, and says which it used and where it came from", async () => {
    // A cancel of no payment, stored days ago: an over_cancel once the grace period has passed since.
    await db.stores.store.record(cancelled('ORD-CLI-G', 'PGCLIG', 'PGCLIGC', 1000));
    const open = async () => (await db.stores.ledger.getOrder({ mallId: MALL, shopOrderNo: 'ORD-CLI-G' }))!.discrepancies.filter((d) => d.resolvedAt === null).map((d) => d.kind);
    expect((await cli('ledger', 'rebuild', '--json')).json()).toMatchObject({ changed: 1, graceSeconds: 2100, graceFrom: 'default' });
    expect(await open()).toEqual(['over_cancel']);

    // A grace period longer than the days since: what waited for it has not opened yet.
    const longer = await cli('ledger', 'rebuild', '--grace-seconds', String(30 * 24 * 3600));
    expect(longer).toMatchObject({ code: 0, stdout: 'grace period 2592000 s (--grace-seconds)\nrecomputed 1 order(s); 1 record(s) changed\n' });
    expect(await open()).toEqual([]);

    // Without the option, the environment's: said so, and used.
    const fromEnv = await runCliCaptured(['ledger', 'rebuild'], { DATABASE_URL: db.url, LEDGER_GRACE_SECONDS: '60' });
    expect(fromEnv.stdout).toMatch(/^grace period 60 s \(LEDGER_GRACE_SECONDS from the environment\); pass the serving receiver's with --grace-seconds if it differs\nrecomputed 1 order\(s\); 1 record\(s\) changed\n$/);
    expect(await open()).toEqual(['over_cancel']);

    const refused = await cli('ledger', 'rebuild', '--grace-seconds', '-5');
    expect(refused.code).toBe(2);
  });

  test('ledger rebuild names .env when the grace period came from it', async () => {
    let stdout = '';
    const code = await runCli(['ledger', 'rebuild'], { env: { DATABASE_URL: db.url, LEDGER_GRACE_SECONDS: '60' }, fromDotEnv: new Set(['LEDGER_GRACE_SECONDS']), stdout: (text) => void (stdout += text), stderr: () => {} });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^grace period 60 s \(LEDGER_GRACE_SECONDS from \.env\)/);
  });

  test('ledger rebuild lowers its process below the serving receiver\'s before it works; a read does not', async () => {
    const steps: string[] = [];
    const io = (command: string) => ({
      env: { DATABASE_URL: db.url },
      stdout: () => void steps.push(`${command} printed`),
      stderr: () => {},
      stepAside: () => void steps.push(`${command} stepped aside`),
    });
    expect(await runCli(['ledger', 'rebuild'], io('rebuild'))).toBe(0);
    expect(await runCli(['orders', 'list'], io('list'))).toBe(0);
    expect(steps).toEqual(['rebuild stepped aside', 'rebuild printed', 'list printed']);
  });

  test('ledger backfill reads the stored notifications and, where the ledger already has their facts, changes nothing', async () => {
    for (let i = 0; i < 3; i++) await db.stores.store.record(paid(`ORD-CLI-B${i}`, `PGCLIB${i}`, 1000, i));
    // Each notification's inbox row and the order.status_changed it caused (internal, not read).
    expect(await cli('ledger', 'backfill', '--grace-seconds', '2100')).toMatchObject({
      code: 0, stdout: 'grace period 2100 s (--grace-seconds)\nread 3 stored notification(s), 3 naming an order; 0 order record(s) changed\n',
    });
    expect((await cli('ledger', 'backfill', '--json')).json()).toEqual({ notifications: 3, facts: 3, changed: 0, graceSeconds: 2100, graceFrom: 'default' });
  });
}

describe('ledger commands on SQLite', () => {
  ledgerCommands(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-ledger-cli-'));
    const url = `sqlite:${join(dir, 'receiver.db')}`;
    const stores = await openStores(url);
    return { url, stores, cleanup: async () => { await stores.store.close(); rmSync(dir, { recursive: true, force: true }); } };
  });
});

describePostgres('ledger commands on PostgreSQL', () => {
  ledgerCommands(async () => {
    const schema: TestSchema = await createTestSchema();
    const stores = await openStores(schema.url);
    return { url: schema.url, stores, cleanup: async () => { await stores.store.close(); await schema.drop(); } };
  });
});
