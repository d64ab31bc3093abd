import type request from 'supertest';
import { kstDay } from '../../src/ledger/summary/kst-day';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification, changeNotification, escrowNotification, transferFailedNotification } from '../../src/simulator/notification-builders';
import { HOST } from '../console/console-harness';
import { startLedgerConsole, type LedgerConsole } from '../console/ledger-console-harness';

const MALL = 'T0001234';
const kst = (iso: string) => kstStamp(new Date(iso));

describe('the month view and the day page of the day\'s money', () => {
  let h: LedgerConsole;
  let agent: request.Agent;
  const today = kstDay(new Date().toISOString());
  const page = async (path: string, language = 'en') => (await agent.get(path).set('Host', HOST).set('Accept-Language', language).expect(200)).text;
  const cell = (html: string, day: string) => new RegExp(`<td class="[^"]*" data-day="${day}">([\\s\\S]*?)</td>`).exec(html)?.[1] ?? '';

  beforeAll(async () => {
    h = await startLedgerConsole();
    ({ agent } = await h.signIn('viewer-lee', 'viewer'));
    const notify = (body: Record<string, string>) => h.ledgerApp.notify(body).expect(200);
    // October: paid on the 15th at noon, a third cancelled on the 16th.
    await notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-OCT', pgCno: 'PG-OCT', amount: '30000', transactionDate: kst('2026-10-15T03:00:00Z') }));
    await notify(changeNotification({ mallId: MALL, shopOrderNo: 'ORD-OCT', pgCno: 'PG-OCT', cancelPgCno: 'CX-OCT', cancelAmount: '10000', amount: '10000', cancelRemainAmount: '20000', cancelDate: kst('2026-10-16T01:00:00Z') }));
    // An escrow status on the 18th: no money, but an event of the order that day.
    await notify(escrowNotification({ mallId: MALL, shopOrderNo: 'ORD-OCT', pgCno: 'PG-OCT', statusCode: 'ES02', escrowChangeDate: kst('2026-10-18T02:00:00Z') }));
    // The 20th: a 51 as the gateway documents it (no amount), following no refund.
    await notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-51', pgCno: 'PG-51', amount: '7000', transactionDate: kst('2026-10-20T01:00:00Z') }));
    const failed: Record<string, string> = transferFailedNotification({ mallId: MALL, shopOrderNo: 'ORD-51', pgCno: 'PG-51', refundDate: kst('2026-10-20T02:00:00Z') });
    delete failed.amount;
    await notify(failed);
    // Today: a payment in dollars, and an order paid twice (an open duplicate_payment).
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/ORD-USD/expectation`, { amount: 1203, currency: 'USD', method: 'card', expiresAt: null }).expect(200);
    await notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-USD', pgCno: 'PG-USD', amount: '1203', transactionDate: kstStamp() }));
    await notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-TWICE', pgCno: 'PG-T1', amount: '5000', transactionDate: kstStamp() }));
    await notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-TWICE', pgCno: 'PG-T2', amount: '5000', transactionDate: kstStamp() }));
    await h.ledgerApp.stores.ledger.caughtUp();
  });
  afterAll(() => h.close());

  test('the month view opens on today\'s month, in the menu; today shows its net per currency and the open discrepancy\'s mark', async () => {
    const month = await page('/console/summary');
    expect(month).toContain('<h1>Daily money');
    expect(month).toMatch(/<a href="\/console\/summary" class="active">Daily money<\/a>/);
    const day = cell(month, today);
    expect(day).toContain('₩10,000');
    expect(day).toContain('$12.03');
    expect(day).toContain('class="open-mark"');
  });

  test('a past month: the payment on its day, the cancel on the next as a negative net; previous and next month links', async () => {
    const october = await page('/console/summary?month=2026-10');
    expect(cell(october, '2026-10-15')).toContain('₩30,000');
    expect(cell(october, '2026-10-16')).toContain('<span class="money negative">-₩10,000</span>');
    expect(cell(october, '2026-10-15')).not.toContain('open-mark');
    expect(october).toContain('href="/console/summary?month=2026-09"');
    expect(october).toContain('href="/console/summary?month=2026-11"');
    expect(october).toContain('href="/console/summary/2026-10-16"');
  });

  test('under the calendar, the month\'s totals per currency: the sums of its days, never added across currencies', async () => {
    const totals = (html: string) => /<table class="month-totals"[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    const row = (table: string, label: string) => (new RegExp(`<th>${label}</th>([\\s\\S]*?)</tr>`).exec(table)?.[1] ?? '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
    const october = totals(await page('/console/summary?month=2026-10'));
    expect(row(october, 'Payments')).toBe('2 items ₩37,000');
    expect(row(october, 'Cancels and refunds')).toBe('1 item ₩10,000');
    expect(row(october, 'Net')).toBe('₩27,000');
    // This month holds won and dollars: a column pair each, each its own total.
    const now = totals(await page('/console/summary'));
    expect(now).toContain('<th colspan="2">KRW</th>');
    expect(now).toContain('<th colspan="2">USD</th>');
    expect(row(now, 'Net')).toBe('₩10,000 $12.03');
    const ko = totals(await page('/console/summary?month=2026-10', 'ko'));
    expect(row(ko, '순액')).toBe('27,000원');
  });

  test('the day page shows the day\'s figures and links the orders with an event that day, in English and in Korean', async () => {
    const en = await page('/console/summary/2026-10-16');
    expect(en).toContain('Money of 2026-10-16');
    expect(en).toMatch(/Cancels and refunds<\/th><td class="num">1 item<\/td><td class="num"><span class="money">₩10,000<\/span>/);
    expect(en).toContain('href="/console/orders/T0001234/ORD-OCT"');
    const ko = await page('/console/summary/2026-10-16', 'ko');
    expect(ko).toContain('2026-10-16 정산');
    expect(ko).toMatch(/취소·환불<\/th><td class="num">1건<\/td><td class="num"><span class="money">10,000원<\/span>/);
    expect(ko).toContain('마감 시점 주문 상태');
    const koMonth = await page('/console/summary?month=2026-10', 'ko');
    expect(koMonth).toContain('2026년 10월');
    expect(cell(koMonth, '2026-10-15')).toContain('30,000원');
  });

  test('the day page of a day whose only event is an escrow status lists the order', async () => {
    const en = await page('/console/summary/2026-10-18');
    expect(en).toContain('href="/console/orders/T0001234/ORD-OCT"');
    expect(en).not.toContain('No order has an event on this day.');
  });

  test('a failed refund whose amount cannot be known reads unknown on the day page, in English and in Korean, never ₩0', async () => {
    const row = (html: string, label: string) => new RegExp(`<th>${label}</th>([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? '';
    const en = row(await page('/console/summary/2026-10-20'), 'Refunds failed \\(not in net\\)');
    expect(en).toContain('amount unknown');
    expect(en).not.toContain('₩0');
    const ko = row(await page('/console/summary/2026-10-20', 'ko'), '환불 실패 \\(순액 제외\\)');
    expect(ko).toContain('금액 알 수 없음');
    expect(ko).not.toContain('0원');
  });

  test.each(['2026-02-30', '2026-12-32', '2026-13-01', '2026-02-29', '2026-1-1'])('a day that is not a day (%s) is a 400 that says so, in each language', async (day) => {
    const answer = await agent.get(`/console/summary/${day}`).set('Host', HOST).expect(400);
    expect(answer.text).toContain(`${day} is not a day (YYYY-MM-DD).`);
    const ko = await agent.get(`/console/summary/${day}`).set('Host', HOST).set('Accept-Language', 'ko').expect(400);
    expect(ko.text).toContain(`날짜가 아닙니다: ${day} (연-월-일로 적으세요. 예: 2026-12-02)`);
  });

  test('a leap day is a day', async () => {
    expect(await page('/console/summary/2024-02-29')).toContain('Money of 2024-02-29');
  });

  test.each(['2026-13', '2026-00', '2026-1', 'november', '2026-11-01'])('a month that is not a month (%s) is a 400 that says so, never another month', async (month) => {
    const answer = await agent.get(`/console/summary?month=${encodeURIComponent(month)}`).set('Host', HOST).expect(400);
    expect(answer.text).toContain(`${month} is not a month (YYYY-MM, e.g. 2026-11).`);
    const ko = await agent.get(`/console/summary?month=${encodeURIComponent(month)}`).set('Host', HOST).set('Accept-Language', 'ko').expect(400);
    expect(ko.text).toContain(`${month}는 월(YYYY-MM, 예: 2026-11)이 아닙니다.`);
  });
});
