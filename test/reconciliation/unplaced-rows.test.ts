import request from 'supertest';
import { changeNotification } from '../../src/simulator/notification-builders';
import { kstStamp } from '../../src/notifications/kst-date';
import type { ReconciliationDay, ReconciliationStore } from '../../src/reconciliation/import/reconciliation-store';
import { importGatewayList } from '../../src/reconciliation/import/import-list';
import { API_TOKEN } from '../ledger/ledger-app-harness';
import { HOST, ORIGIN } from '../console/console-harness';
import { startLedgerConsole, type LedgerConsole } from '../console/ledger-console-harness';
import { runCliCaptured } from '../cli/seeded-receiver';
import { cp949Csv } from './file/list-files';
import { DATABASES, MALL, openKinds, orderOf, readFile, testDatabase } from './reconciliation-harness';

/** 2026-11-20 in Korea: the day the list covers. */
const DAY = '2026-11-20';
const at = (hour: number, minute = 0) => new Date(Date.UTC(2026, 10, 20, hour - 9, minute));
const wall = (hour: number) => `${DAY} ${String(hour).padStart(2, '0')}:00:00`;

/**
 * The portal's list of the day as a CP949 CSV with no order-number column: ORD-A's first payment,
 * notified; its second payment and ORD-B's payment, whose notifications were lost; and a part of
 * ORD-B's payment cancelled, whose notification was lost too.
 */
const theList = () => cp949Csv([
  ['거래내역 조회'],
  ['PG거래번호', '취소거래번호', '거래금액', '거래일시', '거래상태', '결제수단'],
  ['PGU-A', '', '15,000', wall(9), '승인', '신용카드'],
  ['PGU-A2', '', '5,000', wall(12), '승인', '신용카드'],
  ['PGU-B', '', '8,000', wall(11), '승인', '신용카드'],
  ['PGU-B', 'CXU-B', '3,000', wall(14), '취소', '신용카드'],
]);

describe.each(DATABASES)("a list's rows that name no order (%s)", (name, runs) => {
  const maybe = runs ? it : it.skip;
  let app: LedgerConsole;
  let db: Awaited<ReturnType<typeof testDatabase>>;

  beforeEach(async () => {
    db = await testDatabase(name);
    app = await startLedgerConsole({ ...(db.url), now: () => new Date(Date.UTC(2026, 10, 21, 3)) });
  });
  afterEach(async () => {
    await app.close();
    await db.drop();
  });

  const { approve, record } = orderOf(() => app.ledgerApp);
  const cancel = (shopOrderNo: string, pgCno: string, cancelPgCno: string, amount: number, remain: number, when: Date) =>
    app.ledgerApp.notify(changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno, amount: String(amount), cancelAmount: String(amount), cancelRemainAmount: String(remain), cancelDate: kstStamp(when) })).expect(200);
  const theDay = async (): Promise<ReconciliationDay> => {
    const { days } = (await app.ledgerApp.api.get(`/v1/reconciliation/days/${DAY}`).expect(200)).body as { days: ReconciliationDay[] };
    expect(days).toHaveLength(1);
    return days[0]!;
  };
  const gauge = async () => app.ledgerApp.metrics.registry.getSingleMetricAsString('noti_receiver_ledger_discrepancies_open');

  async function importTheList() {
    await approve('ORD-A', 'PGU-A', 15_000, at(9));
    const imported = await request(app.ledgerApp.apiApp).post(`/v1/reconciliation/imports?mall=${MALL}&fileName=list.csv`)
      .set('Authorization', `Bearer ${API_TOKEN}`).set('Content-Type', 'text/csv').send(theList()).expect(201);
    expect(imported.body).toMatchObject({ unplaced: 3, differences: { notification_missing: 3 } });
  }

  maybe('they are shown as missing notifications on the day: the API, the CLI, the console page in Korean and English, and the alert\'s gauge', async () => {
    await importTheList();
    const day = await theDay();
    expect(day.differences.open).toEqual({ notification_missing: 3 });
    expect(day.matched).toEqual({ payments: { count: 1, amount: 15_000 }, cancels: { count: 0, amount: 0 } });
    expect(day.unplaced).toEqual([
      { line: 4, kind: 'payment', pgCno: 'PGU-A2', cancelPgCno: null, amount: 5_000, status: 'approved', at: at(12).toISOString(), resendPath: 'transaction management → notification inquiry' },
      { line: 5, kind: 'payment', pgCno: 'PGU-B', cancelPgCno: null, amount: 8_000, status: 'approved', at: at(11).toISOString(), resendPath: 'transaction management → notification inquiry' },
      { line: 6, kind: 'cancel', pgCno: 'PGU-B', cancelPgCno: 'CXU-B', amount: 3_000, status: 'cancelled', at: at(14).toISOString(), resendPath: 'transaction management → notification inquiry' },
    ]);
    expect(await gauge()).toContain('noti_receiver_ledger_discrepancies_open{kind="notification_missing",simulated="false"} 3');

    const cli = await runCliCaptured(['reconcile', 'list', '--day', DAY], { DATABASE_URL: app.ledgerApp.databaseUrl, USER: 'ops-lead' });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('differences open: notification_missing 3');
    expect(cli.stdout).toMatch(/row 5\s+notification_missing\s+\(none in the file\)\s+PGU-B\s+₩8,000/);
    expect(cli.stdout).toMatch(/row 6\s+notification_missing\s+\(none in the file\)\s+PGU-B\s+CXU-B\s+₩3,000/);
    expect(cli.stdout).toContain('no order number in the file (파일에 주문번호 없음)');
    expect(cli.stdout).toContain('거래관리 → 노티조회');

    const { agent, csrf } = await app.signIn('lee', 'operator');
    const page = async (locale: 'ko' | 'en') => {
      await agent.post('/console/locale').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, locale, back: '/console' }).expect(303);
      return (await agent.get(`/console/reconcile?day=${DAY}`).set('Host', HOST).expect(200)).text;
    };
    const ko = await page('ko');
    const rows = [...ko.matchAll(/<tr data-unplaced="(\d+)" data-kind="notification_missing">([\s\S]*?)<\/tr>/g)];
    expect(rows.map((m) => m[1])).toEqual(['4', '5', '6']);
    expect(rows[1]![2]).toContain('PGU-B');
    expect(rows[1]![2]).toContain('8,000원');
    expect(rows[1]![2]).toContain('파일에 주문번호 없음');
    expect(rows[1]![2]).toContain('거래관리 → 노티조회');
    expect(ko).toMatch(/data-kind-count="notification_missing"><th>[\s\S]*?미해결 3/);
    const en = await page('en');
    expect(en).toContain('no order number in the file');
    expect(en).toContain('transaction management → notification inquiry');
  });

  maybe('the resends place the rows in their orders and match them: the differences are gone, no not_in_gateway_list opens, and ledger rebuild agrees', async () => {
    await importTheList();
    // Resent from the portal: ORD-A's second payment (the order holds the list's fact of its first already), then ORD-B's payment and its cancel.
    await approve('ORD-A', 'PGU-A2', 5_000, at(12));
    await approve('ORD-B', 'PGU-B', 8_000, at(11));
    const paidOnly = await record('ORD-B');
    // Its cancel's row came with the payment's: until the cancel is resent, it is the order's missing notification.
    expect(openKinds(paidOnly)).toEqual(['notification_missing']);
    expect(paidOnly.discrepancies[0]!.details).toMatchObject({ pgCno: 'PGU-B', cancelPgCno: 'CXU-B', listedAmount: 3_000 });
    expect((await theDay()).unplaced).toEqual([]);
    await cancel('ORD-B', 'PGU-B', 'CXU-B', 3_000, 5_000, at(14));

    const a = await record('ORD-A');
    const b = await record('ORD-B');
    // Two approvals of one order are a duplicate payment, whatever the lists say.
    expect(openKinds(a)).toEqual(['duplicate_payment']);
    expect(openKinds(b)).toEqual([]);
    // Each row was missing from the import until its resend: closed by the ledger, and nothing was taken for a forgery.
    for (const r of [a, b]) expect(r.discrepancies.filter((d) => d.kind !== 'duplicate_payment').map((d) => [d.kind, d.resolvedBy])).toEqual(r.discrepancies.filter((d) => d.kind === 'notification_missing').map(() => ['notification_missing', 'ledger']));
    const rowsOf = async (shopOrderNo: string) => (await app.ledgerApp.stores.ledger.gatewayListings({ mallId: MALL, shopOrderNo })).flatMap((l) => l.rows.map((r) => r.line)).sort();
    expect(await rowsOf('ORD-A')).toEqual([3, 4]);
    expect(await rowsOf('ORD-B')).toEqual([5, 6]);
    const day = await theDay();
    expect(day.unplaced).toEqual([]);
    expect(day.differences.open).toEqual({});
    expect(day.matched).toEqual({ payments: { count: 3, amount: 28_000 }, cancels: { count: 1, amount: 3_000 } });
    expect(await gauge()).toContain('noti_receiver_ledger_discrepancies_open{kind="notification_missing",simulated="false"} 0');

    const live = await Promise.all(['ORD-A', 'ORD-B'].map(record));
    for (let page: number | null = null, first = true; first || page !== null; first = false) {
      page = (await app.ledgerApp.stores.ledger.rebuildPage(page, 100, new Date().toISOString())).next;
    }
    expect(await Promise.all(['ORD-A', 'ORD-B'].map(record))).toEqual(live);
    expect((await theDay()).differences).toEqual(day.differences);
  });

  maybe("a notification applied while the import is being stored is given its rows by the import: placed, matched, no not_in_gateway_list", async () => {
    await approve('ORD-A', 'PGU-A', 15_000, at(9));
    const { reconciliation, ledger } = app.ledgerApp.stores;
    // The real store, but ORD-B's payment is accepted and applied right after the import placed the rows and read the day's orders.
    const racing: ReconciliationStore = {
      ...reconciliation,
      ordersOnDays: async (mallId, firstDay, lastDay) => {
        const orders = await reconciliation.ordersOnDays(mallId, firstDay, lastDay);
        if (!orders.some((o) => o.shopOrderNo === 'ORD-B')) {
          await approve('ORD-B', 'PGU-B', 8_000, at(11));
          await ledger.caughtUp(20_000);
        }
        return orders;
      },
    };
    const outcome = await importGatewayList(
      { reconciliation: racing, ledger, read: readFile },
      { bytes: theList(), fileName: 'list.csv', mallId: MALL, actor: 'tester (test)', at: new Date().toISOString(), matchWaitMs: 20_000 },
    );
    // ORD-A's second payment stays in no order; ORD-B's payment and its cancel are placed.
    expect(outcome).toMatchObject({ outcome: 'imported', summary: { unplaced: 1, differences: { notification_missing: 2 } } });
    const b = await record('ORD-B');
    expect(openKinds(b)).toEqual(['notification_missing']);
    expect(b.discrepancies.find((d) => d.resolvedAt === null)!.details).toMatchObject({ pgCno: 'PGU-B', cancelPgCno: 'CXU-B' });
    expect(b.discrepancies.map((d) => d.kind)).not.toContain('not_in_gateway_list');
    expect((await theDay()).unplaced.map((u) => u.line)).toEqual([4]);
  });
});
