import type request from 'supertest';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification, depositNotification } from '../../src/simulator/notification-builders';
import { createTestSchema, describePostgres } from '../store/pg-test-database';
import { HOST } from './console-harness';
import { startLedgerConsole, type LedgerConsole } from './ledger-console-harness';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A KST day as the date filter takes it. */
const kstDay = (at: Date) => new Date(at.getTime() + 9 * 60 * 60 * 1000).toISOString().slice(0, 10);

let counter = 0;
const orderNo = (what: string) => `SRCH-${what}-${process.pid}-${Date.now()}-${++counter}`;

/**
 * The Orders page's one box, over the real ledger: an operator types what the caller says (the
 * order number, the pgCno, the approval number on the card slip, "12,000 won yesterday") and ends
 * on the order; filters narrow by method, the order's status and the payment's KST day.
 */
function orderSearch(start: () => Promise<{ h: LedgerConsole; cleanup: () => Promise<void> }>): void {
  let h: LedgerConsole;
  let cleanup: () => Promise<void>;
  let agent: request.Agent;
  const now = new Date();
  const yesterday = new Date(now.getTime() - DAY_MS);
  const orders = { yesterday: orderNo('Y'), today: orderNo('T'), transfer: orderNo('B'), usd: orderNo('U'), deposit: orderNo('V'), receipt: orderNo('R') };
  const approvals = { yesterday: `AP${process.pid}${Date.now() % 100000}`, today: `AQ${process.pid}${Date.now() % 100000}` };
  let todayPgCno = '';

  beforeAll(async () => {
    ({ h, cleanup } = await start());
    ({ agent } = await h.signIn('reader', 'viewer'));
    const notify = async (body: Record<string, string>) => (await h.ledgerApp.notify(body).expect(200)).body as unknown;
    await notify(approvalNotification({ shopOrderNo: orders.yesterday, amount: '12000', approvalNo: approvals.yesterday, transactionDate: kstStamp(yesterday) }));
    const today = approvalNotification({ shopOrderNo: orders.today, amount: '12000', approvalNo: approvals.today, transactionDate: kstStamp(now) });
    todayPgCno = today.pgCno;
    await notify(today);
    await notify(approvalNotification({ shopOrderNo: orders.transfer, amount: '15000', payMethodTypeCode: '21', transactionDate: kstStamp(now) }));
    await h.ledgerApp.api.put(`/v1/orders/T0001234/${orders.usd}/expectation`, { amount: 1203, currency: 'USD', method: 'card', expiresAt: null }).expect(200);
    await notify(approvalNotification({ shopOrderNo: orders.usd, amount: '1203', transactionDate: kstStamp(now) }));
    await notify(depositNotification({ shopOrderNo: orders.deposit, amount: '45000', depositDate: kstStamp(now) }));
    await notify(approvalNotification({ shopOrderNo: orders.receipt, amount: '17000', approvalNo: '40010002', approvalDate: kstStamp(now) }));
  });
  afterAll(async () => cleanup());

  const search = (params: Record<string, string>) => agent.get(`/console/orders?${new URLSearchParams(params).toString()}`).set('Host', HOST);
  const orderPath = (shopOrderNo: string) => `/console/orders/T0001234/${encodeURIComponent(shopOrderNo)}`;
  const endsOn = async (params: Record<string, string>, shopOrderNo: string) => {
    const answer = await search(params);
    expect({ params, status: answer.status, location: answer.headers.location }).toEqual({ params, status: 303, location: orderPath(shopOrderNo) });
  };

  test('the order number, the pgCno and the approval number each lead straight to the order', async () => {
    await endsOn({ q: orders.today }, orders.today);
    await endsOn({ q: todayPgCno }, orders.today);
    await endsOn({ q: approvals.yesterday }, orders.yesterday);
  });

  test('an approval number as a receipt prints it, with a space or in full-width digits, leads to the order', async () => {
    for (const q of ['4001 0002', ' 4001  0002 ', '4001-0002', '４００１ ０００２', '40010002']) await endsOn({ q }, orders.receipt);
    // Pasted from an export's CSV: the word joiner (UTF-8 file) or tab (CP949 file) that keeps it text.
    for (const q of ['\u206040010002', '\t40010002', `\u2060${orders.receipt}`]) await endsOn({ q }, orders.receipt);
    // An order number is matched only as typed: another spacing may be another order's number.
    const spaced = `${orders.receipt.slice(0, 4)} ${orders.receipt.slice(4)}`;
    expect((await search({ q: spaced }).expect(200)).text).toMatch(/Nothing found/);
  });

  test('"I paid 12,000 won yesterday": the amount as people type it, on that KST day, ends on the order', async () => {
    const day = { paid_from: kstDay(yesterday), paid_to: kstDay(yesterday) };
    for (const q of ['12000', '12,000', '12000원', '₩12,000', '12,000 원', 'KRW 12000']) await endsOn({ q, ...day }, orders.yesterday);
    // Without the day, both orders of 12,000 won are listed, each with the payment that matched.
    const both = await search({ q: '12,000원' }).expect(200);
    expect(both.text).toContain(orderPath(orders.yesterday));
    expect(both.text).toContain(orderPath(orders.today));
    expect(both.text).toMatch(/2 orders found/);
    expect(both.text).toContain(approvals.yesterday);
  });

  test('an amount typed in dollars is in minor units of USD, and finds only orders in USD', async () => {
    await endsOn({ q: '$12.03' }, orders.usd);
    const won = await search({ q: '₩1,203' }).expect(200);
    expect(won.text).toMatch(/Nothing found/);
  });

  test('filters: the method, the order status and the payment day narrow what is found', async () => {
    await endsOn({ q: '15,000', method: '21' }, orders.transfer);
    expect((await search({ q: '15,000', method: '11' }).expect(200)).text).toMatch(/Nothing found/);
    await endsOn({ q: '45,000원', method: '22' }, orders.deposit);
    expect((await search({ q: '12,000', status: 'cancelled' }).expect(200)).text).toMatch(/Nothing found/);
    expect((await search({ q: '12,000', status: 'paid' }).expect(200)).text).toMatch(/2 orders found/);
    const tomorrow = kstDay(new Date(now.getTime() + DAY_MS));
    expect((await search({ q: approvals.today, paid_from: tomorrow }).expect(200)).text).toMatch(/Nothing found/);
  });

  test('the form offers the filters in both languages', async () => {
    const page = await search({}).expect(200);
    expect(page.text).toMatch(/<label class="grow">Search<input name="q"/);
    expect(page.text).toContain('name="method"');
    expect(page.text).toContain('name="paid_from"');
    const ko = await agent.get('/console/orders?lang=ko').set('Host', HOST).set('Accept-Language', 'ko-KR');
    expect(ko.status).toBe(200);
    expect(ko.text).toContain('결제수단');
    expect(ko.text).toContain('승인번호');
  });
}

describe('the Orders search box, on SQLite', () => {
  orderSearch(async () => {
    const h = await startLedgerConsole();
    return { h, cleanup: () => h.close() };
  });
});

describePostgres('the Orders search box, on PostgreSQL', () => {
  orderSearch(async () => {
    const schema = await createTestSchema();
    const h = await startLedgerConsole({ databaseUrl: schema.url });
    return { h, cleanup: async () => { await h.close(); await schema.drop(); } };
  });
});
