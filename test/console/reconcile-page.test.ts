import { readGatewayList } from '../../src/reconciliation/file/read-gateway-list';
import type { GatewayTransactionRow, ReadResult, SettlementRow } from '../../src/reconciliation/file/gateway-rows';
import { importGatewayList } from '../../src/reconciliation/import/import-list';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { kstStamp } from '../../src/notifications/kst-date';
import type { BookedTransaction } from '../../src/sandbox/gateway-books';
import { portalFile } from '../../src/sandbox/portal-files';
import { settlementStatement, transactionList } from '../../src/sandbox/portal-lists';
import { HOST, ORIGIN } from './console-harness';
import { startLedgerConsole, type LedgerConsole } from './ledger-console-harness';

const MALL = 'T0001234';
const DAY = '2026-11-20';
const at = (hour: number) => new Date(Date.UTC(2026, 10, 20, hour - 9));

const booked = (o: Partial<Omit<BookedTransaction, 'at'>> & { pgCno: string; shopOrderNo: string; amount: number; at: Date }): BookedTransaction => ({
  kind: 'payment', mallId: MALL, cancelPgCno: null, approvalNo: null, remainingAfter: null, method: '신용카드', ...o, at: o.at.toISOString(),
});

/** The reader as the import runs it, on the sandbox portal's real .xlsx. */
const read = (bytes: Buffer, fileName: string) => readGatewayList(bytes, fileName, { maxBytes: 1 << 24, maxRows: 10_000 }) as Promise<ReadResult<GatewayTransactionRow | SettlementRow>>;

describe('the Reconcile page shows a day matched with the gateway\'s list, as money, each difference with what to do', () => {
  let app: LedgerConsole;
  beforeEach(async () => {
    app = await startLedgerConsole({ now: () => new Date(Date.UTC(2026, 10, 21, 3)) });
  });
  afterEach(() => app.close());

  async function importTheDay(fileName: string) {
    const approve = (shopOrderNo: string, pgCno: string, amount: number, when: Date) =>
      app.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: String(amount), transactionDate: kstStamp(when) })).expect(200);
    await approve('ORD-MATCHED', 'PG-A', 15_000, at(9));
    await approve('ORD-FORGED', 'PG-D', 99_000, at(12));
    await approve('ORD-AMOUNT', 'PG-E', 3_000, at(13));
    const list = transactionList([
      booked({ pgCno: 'PG-A', shopOrderNo: 'ORD-MATCHED', amount: 15_000, at: at(9) }),
      booked({ pgCno: 'PG-B', shopOrderNo: 'ORD-DROPPED', amount: 8_000, at: at(10) }),
      booked({ pgCno: 'PG-E', shopOrderNo: 'ORD-AMOUNT', amount: 30_000, at: at(13) }),
    ]);
    const bytes = await portalFile(list, { mallId: MALL, from: DAY, to: DAY }, 'xlsx');
    const outcome = await importGatewayList(
      { reconciliation: app.ledgerApp.stores.reconciliation, ledger: app.ledgerApp.stores.ledger, read },
      { bytes, fileName, mallId: MALL, actor: 'kim (console)', at: new Date().toISOString(), matchWaitMs: 20_000 },
    );
    expect(outcome.outcome).toBe('imported');
  }

  test('in Korean: the file, the rows matched, the three differences with their playbooks; a file name is text', async () => {
    await importTheDay('<img src=x onerror=alert(1)>.xlsx');
    const { agent, csrf } = await app.signIn('lee', 'operator');
    await agent.post('/console/locale').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, locale: 'ko', back: '/console' }).expect(303);
    // Yesterday in Korea by default: the console's clock says 2026-11-21 12:00 KST.
    const page = (await agent.get('/console/reconcile').set('Host', HOST).expect(200)).text;
    expect(page).toContain(`${DAY} 대사`);
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;.xlsx');
    expect(page).not.toContain('<img');
    const figure = (name: string) => new RegExp(`data-figure="${name}"><th>[^<]+</th><td class="num">([^<]+)</td><td class="num"><span class="money">([^<]+)</span>`).exec(page)?.slice(1);
    expect(figure('listed')).toEqual(['3건', '53,000원']);
    expect(figure('matched')).toEqual(['1건', '15,000원']);
    const kinds = [...page.matchAll(/data-kind="([a-z_]+)"/g)].map((m) => m[1]).sort();
    expect(kinds).toEqual(['gateway_amount_differs', 'not_in_gateway_list', 'notification_missing']);
    expect(page).toContain('data-discrepancy="dsc_');
    expect(page).toContain('대응 방법');
    expect(page).toMatch(/<form method="post" action="\/console\/summary\/2026-11-20\/close"/);
  });

  test("the settlement statement goes through the same import: its fees and payout on the day, the file listed as a statement; a closed day says who closed it", async () => {
    await importTheDay('list.xlsx');
    const statement = await portalFile(settlementStatement([
      booked({ pgCno: 'PG-A', shopOrderNo: 'ORD-MATCHED', amount: 15_000, at: at(9) }),
      booked({ pgCno: 'PG-E', shopOrderNo: 'ORD-AMOUNT', amount: 30_000, at: at(13) }),
    ]), { mallId: MALL, from: DAY, to: DAY }, 'csv');
    const imports = { reconciliation: app.ledgerApp.stores.reconciliation, ledger: app.ledgerApp.stores.ledger, read };
    const request = { bytes: statement, fileName: 'statement.csv', mallId: MALL, actor: 'kim (console)', at: new Date().toISOString() };
    const outcome = await importGatewayList(imports, request);
    expect(outcome).toMatchObject({ outcome: 'imported', summary: { import: { kind: 'settlement', rowCount: 2 }, rows: { payments: 2, cancels: 0 } } });
    expect((await importGatewayList(imports, request)).outcome).toBe('already_imported');
    await app.ledgerApp.stores.ledger.closeDay(DAY, null, { at: new Date().toISOString(), actor: 'choi' }, 'KRW');

    const { agent } = await app.signIn('han', 'operator');
    const page = (await agent.get(`/console/reconcile?day=${DAY}`).set('Host', HOST).expect(200)).text;
    // 신용카드 2.1 %: 315 + 630 won of fees, a tenth of each as VAT; 45,000 - 945 - 95 paid out.
    expect(page).toMatch(/<tr data-mall="T0001234"><td class="mono">T0001234<\/td><td class="num">2<\/td><td class="num"><span class="money">₩45,000<\/span><\/td><td class="num"><span class="money">₩945<\/span><\/td><td class="num"><span class="money">₩95<\/span><\/td><td class="num"><strong><span class="money">₩43,960<\/span><\/strong>/);
    expect(page).toContain('Settlement statement');
    expect(page).toContain('statement.csv');
    expect(page).toContain('data-closed="true"');
    expect(page).toContain('choi');
    // The statement leaves the transaction list speaking for the day: its rows and differences stand.
    expect(page).toContain('data-kind="notification_missing"');
    expect(page).not.toContain('superseded by a later file');
  });

  test("an order's page shows the gateway's own row beside the notifications, and a forged order that no row names", async () => {
    await importTheDay('list.xlsx');
    const { agent } = await app.signIn('yoon', 'viewer');
    const orderPage = async (shopOrderNo: string) => (await agent.get(`/console/orders/${MALL}/${shopOrderNo}`).set('Host', HOST).expect(200)).text;
    const amount = await orderPage('ORD-AMOUNT');
    expect(amount).toContain('<section class="card gateway-rows"><h2>The gateway&#39;s transaction lists</h2>');
    expect(amount).toMatch(/<td class="mono">PG-E<\/td><td class="mono">—<\/td>\s*<td class="num"><span class="money">₩30,000<\/span><\/td><td data-status="approved">payment · approved<\/td>/);
    expect(await orderPage('ORD-DROPPED')).toMatch(/<td class="mono">PG-B<\/td>[\s\S]*₩8,000/);
    expect(await orderPage('ORD-FORGED')).toContain('the list names no transaction of this order');
    expect(await orderPage('ORD-MATCHED')).toMatch(/<td class="mono">PG-A<\/td>/);
  });

  test("an order's page shows the settlement statement's rows, the list's status in the page's language, and the statement's difference with its playbook", async () => {
    await importTheDay('list.xlsx');
    const statement = await portalFile(settlementStatement([booked({ pgCno: 'PG-E', shopOrderNo: 'ORD-AMOUNT', amount: 30_000, at: at(13) })]), { mallId: MALL, from: DAY, to: DAY }, 'xlsx');
    const outcome = await importGatewayList(
      { reconciliation: app.ledgerApp.stores.reconciliation, ledger: app.ledgerApp.stores.ledger, read },
      { bytes: statement, fileName: 'statement.xlsx', mallId: MALL, actor: 'kim (console)', at: new Date().toISOString(), matchWaitMs: 20_000 },
    );
    expect(outcome).toMatchObject({ outcome: 'imported', summary: { import: { orderCount: 1 }, differences: { settlement_amount_differs: 1 } } });
    const { agent, csrf } = await app.signIn('yoon', 'viewer');
    const page = async () => (await agent.get(`/console/orders/${MALL}/ORD-AMOUNT`).set('Host', HOST).expect(200)).text;
    const english = await page();
    // 신용카드 2.1 %: 630 won of fee, 63 of VAT, 29,307 paid out.
    expect(english).toMatch(/<h3>Settlement statements<\/h3>[\s\S]*<td class="mono">PG-E<\/td><td class="mono">—<\/td><td>2026-11-20<\/td>\s*<td class="num"><span class="money">₩30,000<\/span><\/td><td class="num"><span class="money">₩630<\/span><\/td><td class="num"><span class="money">₩63<\/span><\/td><td class="num"><span class="money">₩29,307<\/span><\/td>/);
    expect(english).toContain('Amount differs from the settlement statement');
    await agent.post('/console/locale').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, locale: 'ko', back: '/console' }).expect(303);
    const korean = await page();
    expect(korean).toContain('<td data-status="approved">결제 · 승인</td>');
    expect(korean).toContain('<h3>정산내역서</h3>');
    expect(korean).toContain('정산내역서와 금액 다름');
  });

  test('a viewer sees the day and no button that changes it; a day with no list says how to get one', async () => {
    await importTheDay('list.xlsx');
    const { agent } = await app.signIn('park', 'viewer');
    const page = (await agent.get(`/console/reconcile?day=${DAY}&mall=${MALL}`).set('Host', HOST).expect(200)).text;
    expect(page).toContain('data-kind="notification_missing"');
    expect(page).not.toContain('/close"');
    expect(page).not.toContain('/resolve"');
    const empty = (await agent.get('/console/reconcile?day=2026-11-19').set('Host', HOST).expect(200)).text;
    expect(empty).toContain('data-listed="none"');
    expect(empty).toContain('Upload');
    await agent.get('/console/reconcile?day=2026-02-30').set('Host', HOST).expect(400);
  });
});
