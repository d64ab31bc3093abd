import type request from 'supertest';
import { kstDay } from '../../src/ledger/summary/kst-day';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification, changeNotification, depositNotification, transferFailedNotification, unionPayForm, nextPgCno } from '../../src/simulator/notification-builders';
import { HOST } from '../console/console-harness';
import { startLedgerConsole, type LedgerConsole } from '../console/ledger-console-harness';
import { binary, bytes } from '../exports/download';
import { parseCsvAsShown, parseXlsx } from '../exports/xlsx-sheet';

const MALL = 'T0001234';
const DAY = '2026-10-15';
const kst = (iso: string) => kstStamp(new Date(iso));
const BADGE = /<span class="badge simulated" title="[^"]+">simulated<\/span>/;
const BADGE_KO = /<span class="badge simulated" title="[^"]+">시뮬레이션<\/span>/;
/** A page's text as a person reads it: tags gone, spaces collapsed. */
const readable = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('the simulator\'s orders kept out of the day\'s money, shown apart and marked; payments split by the gateway\'s method', () => {
  let h: LedgerConsole;
  let agent: request.Agent;
  const page = async (path: string, language = 'en') => (await agent.get(path).set('Host', HOST).set('Accept-Language', language).expect(200)).text;
  const cell = (html: string, day: string) => new RegExp(`<td class="[^"]*" data-day="${day}">([\\s\\S]*?)</td>`).exec(html)?.[1] ?? '';
  const row = (html: string, label: string) => readable(new RegExp(`<tr[^>]*><th>${label}[\\s\\S]*?</tr>`).exec(html)?.[0] ?? '');

  beforeAll(async () => {
    h = await startLedgerConsole();
    ({ agent } = await h.signIn('kim', 'operator'));
    // A real card payment of 30,000 (the shop registered nothing), 4,000 of it cancelled the same day.
    await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-REAL', pgCno: 'PG-REAL', amount: '30000', transactionDate: kst('2026-10-15T03:00:00Z') })).expect(200);
    await h.ledgerApp.notify(changeNotification({ mallId: MALL, shopOrderNo: 'ORD-REAL', pgCno: 'PG-REAL', cancelPgCno: 'CX-REAL', cancelAmount: '4000', amount: '4000', cancelRemainAmount: '26000', cancelDate: kst('2026-10-15T04:00:00Z') })).expect(200);
    // The simulator's: a payment of 13,200, a deposit of 45,000 and a failed refund of 45,000 (which opens a discrepancy).
    await h.ledgerApp.notifySimulated(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-SIM', pgCno: 'PG-SIM', amount: '13200', transactionDate: kst('2026-10-15T05:00:00Z') })).expect(200);
    await h.ledgerApp.notifySimulated(depositNotification({ mallId: MALL, shopOrderNo: 'ORD-SIM-VA', pgCno: 'PG-SIM-VA', amount: '45000', depositDate: kst('2026-10-15T05:30:00Z') })).expect(200);
    await h.ledgerApp.notifySimulated(transferFailedNotification({ mallId: MALL, shopOrderNo: 'ORD-SIM', pgCno: 'PG-SIM', amount: '45000', refundDate: kst('2026-10-15T06:00:00Z') })).expect(200);
    await h.ledgerApp.stores.ledger.caughtUp();
  });
  afterAll(() => h.close());

  test('the day page: the real net, the simulated orders on a line of their own labelled as left out, and the badge on the simulated order, in English and in Korean', async () => {
    const en = await page(`/console/summary/${DAY}`);
    expect(row(en, 'Payments')).toBe('Payments 1 item ₩30,000');
    expect(row(en, 'Net')).toBe('Net ₩26,000');
    expect(row(en, 'Deposits')).toBe('Deposits 0 items ₩0');
    expect(row(en, 'Refunds failed \\(not in net\\)')).toBe('Refunds failed (not in net) 0 items ₩0');
    const apart = row(en, 'Simulated orders \\(not in the totals\\)');
    expect(apart).toBe('Simulated orders (not in the totals) simulated Payments 1 item ₩13,200 · Deposits 1 item ₩45,000 · Refunds failed (not in net) 1 item ₩45,000 · Net ₩58,200');
    const orderRow = (html: string, no: string) => html.split('<tr>').find((r) => r.includes(`href="/console/orders/${MALL}/${no}"`)) ?? '';
    expect(orderRow(en, 'ORD-SIM')).toMatch(BADGE);
    expect(orderRow(en, 'ORD-REAL')).not.toContain('simulated');
    const ko = await page(`/console/summary/${DAY}`, 'ko');
    expect(row(ko, '순액')).toBe('순액 26,000원');
    expect(row(ko, '시뮬레이션 주문 \\(합계에서 제외\\)')).toContain('결제 1건 13,200원');
    expect(orderRow(ko, 'ORD-SIM')).toMatch(BADGE_KO);
  });

  test('the day page splits payments by the gateway\'s method: a card payment of a shop that registered nothing is under cards', async () => {
    const en = await page(`/console/summary/${DAY}`);
    expect(row(en, 'of which card')).toBe('of which card 1 item ₩30,000');
    expect(en).not.toContain('not stated');
    expect(row(await page(`/console/summary/${DAY}`, 'ko'), '그중 카드')).toBe('그중 카드 1건 30,000원');
  });

  test('a UnionPay form is a card payment on the day page', async () => {
    const form = unionPayForm({ cno: nextPgCno(), memb_id: MALL, order_no: 'ORD-UNIONPAY', amount: '33000' });
    await h.ledgerApp.notifyForm(form.body, form.contentType).expect(200);
    await h.ledgerApp.stores.ledger.caughtUp();
    const today = kstDay(new Date().toISOString());
    expect(row(await page(`/console/summary/${today}?mall=${MALL}`), 'of which card')).toMatch(/^of which card \d+ items? ₩[\d,]+$/);
    const days = await h.ledgerApp.stores.ledger.dailySummary({ from: today, to: today, mallId: MALL }, 'KRW');
    expect(days[0]?.payments.byMethod).toEqual({ card: { count: 1, amount: 33000 } });
  });

  test('the month view: the day\'s cell shows the real net and the simulated mark; the month\'s totals leave them out and show them apart', async () => {
    const october = await page('/console/summary?month=2026-10');
    const day = cell(october, DAY);
    expect(readable(day)).toBe('15 ₩26,000 simulated');
    expect(day).toMatch(/<div class="simulated-day" title="simulated orders this day \(not in the totals\): net ₩58,200">/);
    const totals = /<table class="month-totals"[\s\S]*?<\/table>/.exec(october)?.[0] ?? '';
    expect(row(totals, 'Payments')).toBe('Payments 1 item ₩30,000');
    expect(row(totals, 'Deposits')).toBe('Deposits 0 items ₩0');
    expect(row(totals, 'Net')).toBe('Net ₩26,000');
    expect(row(totals, 'Simulated orders \\(not in the totals\\)')).toBe('Simulated orders (not in the totals) simulated 2 items ₩58,200');
    const ko = /<table class="month-totals"[\s\S]*?<\/table>/.exec(await page('/console/summary?month=2026-10', 'ko'))?.[0] ?? '';
    expect(row(ko, '순액')).toBe('순액 26,000원');
    expect(row(ko, '시뮬레이션 주문 \\(합계에서 제외\\)')).toBe('시뮬레이션 주문 (합계에서 제외) 시뮬레이션 2건 58,200원');
  });

  test('the summary API answers the real figures, and the simulated apart', async () => {
    const { days } = (await h.ledgerApp.api.get(`/v1/summary/daily?from=${DAY}&to=${DAY}`).expect(200)).body as { days: Array<Record<string, unknown>> };
    expect(days).toEqual([expect.objectContaining({
      date: DAY, mallId: MALL, currency: 'KRW',
      payments: { count: 1, amount: 30000, byMethod: { card: { count: 1, amount: 30000 } } }, deposits: { count: 0, amount: 0 },
      refundsFailed: { count: 0, amount: 0, unknownCount: 0 }, net: 26000,
      simulated: {
        payments: { count: 1, amount: 13200, byMethod: { card: { count: 1, amount: 13200 } } }, cancels: { count: 0, amount: 0 },
        deposits: { count: 1, amount: 45000 }, depositCancels: { count: 0, amount: 0 }, refundsFailed: { count: 1, amount: 45000, unknownCount: 0 }, net: 58200,
      },
    })]);
  });

  test('the summary files: the day\'s row and the total line hold the real money, the simulated orders in their own labelled columns (CSV and .xlsx)', async () => {
    const csv = parseCsvAsShown(bytes(await binary(agent.get(`/console/exports/summary.csv?from=${DAY}&to=${DAY}`).set('Host', HOST).set('Accept-Language', 'en')).expect(200)).toString('utf8').slice(1));
    const [header, dayRow, total] = csv;
    const at = (r: string[] | undefined, name: string) => r![header!.indexOf(name)];
    for (const r of [dayRow, total]) {
      expect([at(r, 'approved payments amount'), at(r, 'virtual account deposits amount'), at(r, 'refunds failed amount'), at(r, 'net')]).toEqual(['30000', '0', '0', '26000']);
      expect([at(r, 'simulated orders (not in the totals), approved payments amount'), at(r, 'simulated orders (not in the totals), virtual account deposits amount'),
        at(r, 'simulated orders (not in the totals), refunds failed amount'), at(r, 'simulated orders (not in the totals), net')]).toEqual(['13200', '45000', '45000', '58200']);
    }
    expect(at(total, 'date (KST)')).toBe('total');
    expect(at(dayRow, 'approved payments, card amount')).toBe('30000');
    const book = parseXlsx(bytes(await binary(agent.get(`/console/exports/summary.xlsx?from=${DAY}&to=${DAY}`).set('Host', HOST).set('Accept-Language', 'ko-KR')).expect(200)));
    const [xHeader, xDay, xTotal] = book.sheets[0]!;
    const value = (r: typeof xDay, name: string) => r![xHeader!.findIndex((c) => c?.value === name)]?.value;
    for (const r of [xDay, xTotal]) {
      expect([value(r, '결제 승인 금액'), value(r, '가상계좌 입금 금액'), value(r, '순액')]).toEqual([30000, 0, 26000]);
      expect([value(r, '시뮬레이션 주문 (합계에서 제외) 결제 승인 금액'), value(r, '시뮬레이션 주문 (합계에서 제외) 순액')]).toEqual([13200, 58200]);
    }
  });

  test('search results, the discrepancies page and the discrepancies and events files mark the simulated order', async () => {
    // A real payment of the same amount as the simulator's deposit, on another day: the search lists both.
    await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-REAL-45', pgCno: 'PG-REAL-45', amount: '45000', transactionDate: kst('2026-10-17T03:00:00Z') })).expect(200);
    await h.ledgerApp.stores.ledger.caughtUp();
    const found = (await page('/console/orders?q=45000')).split('<tr>');
    const hitOf = (no: string) => found.find((r) => r.includes(`href="/console/orders/${MALL}/${no}"`)) ?? '';
    expect(hitOf('ORD-SIM-VA')).toMatch(BADGE);
    expect(hitOf('ORD-REAL-45')).toContain('PG-REAL-45');
    expect(hitOf('ORD-REAL-45')).not.toContain('simulated');

    const discrepancies = await page('/console/discrepancies');
    const listed = discrepancies.split('<tr data-discrepancy=').filter((r) => r.includes(`href="/console/orders/${MALL}/ORD-SIM"`));
    expect(listed.length).toBeGreaterThan(0);
    for (const r of listed) expect(r).toMatch(BADGE);

    const [dHeader, ...dRows] = parseCsvAsShown(bytes(await binary(agent.get('/console/exports/discrepancies.csv').set('Host', HOST).set('Accept-Language', 'en')).expect(200)).toString('utf8').slice(1));
    const simulatedColumn = dHeader!.indexOf('simulated');
    const orderColumn = dHeader!.indexOf('shopOrderNo');
    expect(dRows.filter((r) => r[orderColumn] === 'ORD-SIM').map((r) => r[simulatedColumn])).toEqual(dRows.filter((r) => r[orderColumn] === 'ORD-SIM').map(() => 'Y'));
    expect(dRows.filter((r) => r[orderColumn] !== 'ORD-SIM').map((r) => r[simulatedColumn])).toEqual(dRows.filter((r) => r[orderColumn] !== 'ORD-SIM').map(() => ''));

    const [eHeader, ...eRows] = parseCsvAsShown(bytes(await binary(agent.get('/console/exports/events.csv').set('Host', HOST).set('Accept-Language', 'en')).expect(200)).toString('utf8').slice(1));
    const marks = Object.fromEntries(eRows.map((r) => [`${r[eHeader!.indexOf('shopOrderNo')]} ${r[eHeader!.indexOf('notiType')]}`, r[eHeader!.indexOf('simulated')]]));
    expect(marks).toMatchObject({ 'ORD-SIM 10': 'Y', 'ORD-SIM 51': 'Y', 'ORD-SIM-VA 30': 'Y', 'ORD-REAL 10': '', 'ORD-REAL 20': '' });
  });
});
