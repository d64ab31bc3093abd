import type request from 'supertest';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification, changeNotification, refundNotification, transferFailedNotification } from '../../src/simulator/notification-builders';
import { rawSql } from '../helpers/raw-sql';
import { createTestSchema, describePostgres } from '../store/pg-test-database';
import { HOST, ORIGIN } from './console-harness';
import { startLedgerConsole, type LedgerConsole } from './ledger-console-harness';

let counter = 0;
const orderNo = (what: string) => `AMT-${what}-${process.pid}-${Date.now()}-${++counter}`;

/**
 * Amounts in the Orders search box, over the real ledger and store: a number is read in each
 * currency's major unit and found only in orders of that currency (1200000 is $12,000.00 in a dollar
 * order, ₩1,200,000 in a won order), typed the ways the console and people write money; a cancel's
 * amount is found as a cancel, labelled so in both languages, never as a payment.
 */
function amountSearch(start: () => Promise<{ h: LedgerConsole; cleanup: () => Promise<void> }>): void {
  let h: LedgerConsole;
  let cleanup: () => Promise<void>;
  let agent: request.Agent;
  let korean: request.Agent;
  const orders = {
    won12000: orderNo('W12000'),
    won1200000: orderNo('W1200000'),
    usd120: orderNo('U120'),
    usd12000: orderNo('U12000'),
    usd1203: orderNo('U1203'),
    partlyCancelled: orderNo('PC'),
    oddCancel: orderNo('OC'),
    refundOnly: orderNo('RF'),
    declined: orderNo('DC'),
    refundFailed: orderNo('FR'),
    paidThenDeclined: orderNo('PD'),
    cancelOnly: orderNo('CO'),
  };

  beforeAll(async () => {
    ({ h, cleanup } = await start());
    ({ agent } = await h.signIn('reader', 'viewer'));
    const ko = await h.signIn('reader-ko', 'viewer');
    korean = ko.agent;
    await korean.post('/console/locale').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: ko.csrf, locale: 'ko', back: '/console/orders' }).expect(303);
    const notify = async (body: Record<string, string>) => h.ledgerApp.notify(body).expect(200);
    const expectDollars = async (shopOrderNo: string, amount: number) =>
      h.ledgerApp.api.put(`/v1/orders/T0001234/${shopOrderNo}/expectation`, { amount, currency: 'USD', method: 'card', expiresAt: null }).expect(200);
    await notify(approvalNotification({ shopOrderNo: orders.won12000, amount: '12000', cardNo: '5361-48**-****-4821' }));
    await notify(approvalNotification({ shopOrderNo: orders.won1200000, amount: '1200000' }));
    await expectDollars(orders.usd120, 12000);
    await notify(approvalNotification({ shopOrderNo: orders.usd120, amount: '12000' }));
    await expectDollars(orders.usd12000, 1200000);
    // A gateway that sends the whole number: the page shows its last four only.
    await notify(approvalNotification({ shopOrderNo: orders.usd12000, amount: '1200000', cardNo: '4111111111111111' }));
    await expectDollars(orders.usd1203, 1203);
    await notify(approvalNotification({ shopOrderNo: orders.usd1203, amount: '1203' }));
    // Paid ₩30,000, ₩12,000 of it cancelled; paid ₩50,000, ₩7,000 of it cancelled.
    const paid = approvalNotification({ shopOrderNo: orders.partlyCancelled, amount: '30000', cardNo: '9410-12**-****-0007' });
    await notify(paid);
    await notify(changeNotification({ shopOrderNo: orders.partlyCancelled, pgCno: paid.pgCno, amount: '12000', cancelAmount: '12000', remainAmount: '18000' }));
    const other = approvalNotification({ shopOrderNo: orders.cancelOnly, amount: '50000' });
    await notify(other);
    await notify(changeNotification({ shopOrderNo: orders.cancelOnly, pgCno: other.pgCno, amount: '7000', cancelAmount: '7000', remainAmount: '43000' }));
    // A cancel whose body repeats the payment's amount beside its own cancelAmount, and a refund that names only its refundAmount.
    const odd = approvalNotification({ shopOrderNo: orders.oddCancel, amount: '40000' });
    await notify(odd);
    await notify(changeNotification({ shopOrderNo: orders.oddCancel, pgCno: odd.pgCno, amount: '40000', cancelAmount: '9000', remainAmount: '31000' }));
    const refunded = approvalNotification({ shopOrderNo: orders.refundOnly, amount: '60000' });
    await notify(refunded);
    const { amount: _none, ...refund } = refundNotification({ shopOrderNo: orders.refundOnly, pgCno: refunded.pgCno, refundAmount: '8000' });
    await notify(refund);
    // An approval the gateway declined, and a refund the bank could not pay out: no money moved back or forth.
    await notify(approvalNotification({ shopOrderNo: orders.declined, amount: '21000', resCd: '3001', resMsg: '한도초과' }));
    const failedPaid = approvalNotification({ shopOrderNo: orders.refundFailed, amount: '70000' });
    await notify(failedPaid);
    await notify(transferFailedNotification({ shopOrderNo: orders.refundFailed, pgCno: failedPaid.pgCno, amount: '6000' }));
    // Paid ₩13,000, then a second attempt of ₩13,000 declined an hour later.
    const hour = 60 * 60 * 1000;
    await notify(approvalNotification({ shopOrderNo: orders.paidThenDeclined, amount: '13000', approvalDate: kstStamp(new Date(Date.now() - 2 * hour)) }));
    await notify(approvalNotification({ shopOrderNo: orders.paidThenDeclined, amount: '13000', resCd: '3001', resMsg: '한도초과', approvalDate: kstStamp(new Date(Date.now() - hour)) }));
  });
  afterAll(async () => cleanup());

  const search = (q: string, as = agent) => as.get(`/console/orders?${new URLSearchParams({ q }).toString()}`).set('Host', HOST);
  const orderPath = (shopOrderNo: string) => `/console/orders/T0001234/${encodeURIComponent(shopOrderNo)}`;
  /** The orders a result page lists, of those this suite made. */
  const listed = (page: string) => Object.entries(orders).filter(([, no]) => page.includes(`href="${orderPath(no)}"`)).map(([name]) => name).sort();
  /** The result row of one order (each row starts with the order's link). */
  const rowOf = (page: string, shopOrderNo: string) => page.split('<tr>').filter((row) => row.includes(`href="${orderPath(shopOrderNo)}"`));
  const endsOn = async (q: string, shopOrderNo: string) => {
    const answer = await search(q);
    expect({ q, status: answer.status, location: answer.headers.location }).toEqual({ q, status: 303, location: orderPath(shopOrderNo) });
  };

  test('a bare 12000 is ₩12,000 or $12,000.00, never $120.00 (nor ₩1,200,000 read as dollars)', async () => {
    for (const q of ['12000', '12,000', '１２０００', ' 12000 ']) {
      const page = await search(q).expect(200);
      expect({ q, listed: listed(page.text) }).toEqual({ q, listed: ['partlyCancelled', 'usd12000', 'won12000'] });
    }
  });

  test('won typed the ways people write it finds the won orders alone', async () => {
    for (const q of ['12,000원', '12000원', '₩12,000', '￦12,000', '12,000 원', 'KRW 12,000', '1만2천원', '1만 2천원', '1.2만원', '１２，０００원']) {
      const page = await search(q).expect(200);
      expect({ q, listed: listed(page.text) }).toEqual({ q, listed: ['partlyCancelled', 'won12000'] });
    }
    await endsOn('1,200,000원', orders.won1200000);
    await endsOn('120만원', orders.won1200000);
  });

  test('dollars as the console writes them and as people do are one amount', async () => {
    for (const q of ['US$12.03', '$12.03', '12.03 USD', 'USD 12.03', '12.03', 'US$ 12.03', '＄12.03']) await endsOn(q, orders.usd1203);
    await endsOn('$120', orders.usd120);
    await endsOn('US$12,000.00', orders.usd12000);
    expect((await search('₩12.03').expect(200)).text).toMatch(/Nothing found/);
  });

  test('a cancel\'s amount is found as a cancel, and labelled so in both languages', async () => {
    const page = (await search('12,000원').expect(200)).text;
    const [cancelRow, ...others] = rowOf(page, orders.partlyCancelled);
    expect(others).toEqual([]);
    expect(cancelRow).toContain('cancel amount');
    expect(cancelRow).not.toContain('payment amount');
    expect(rowOf(page, orders.won12000).join('')).toContain('payment amount');
    const ko = (await search('12,000원', korean).expect(200)).text;
    expect(rowOf(ko, orders.partlyCancelled).join('')).toContain('취소 금액');
    expect(rowOf(ko, orders.partlyCancelled).join('')).not.toContain('결제 금액');
    expect(rowOf(ko, orders.won12000).join('')).toContain('결제 금액');
  });

  test('an order found only by a cancel\'s amount is listed as a cancel, not opened as if it paid that', async () => {
    const page = await search('7,000원').expect(200);
    expect(listed(page.text)).toEqual(['cancelOnly']);
    expect(rowOf(page.text, orders.cancelOnly).join('')).toContain('cancel amount');
    // What it paid still opens it.
    await endsOn('50,000원', orders.cancelOnly);
    await endsOn('30000원', orders.partlyCancelled);
  });

  test('each order found by an amount shows its card\'s last four digits, and no more of the number', async () => {
    const page = (await search('12000').expect(200)).text;
    expect(rowOf(page, orders.won12000).join('')).toContain('•••• 4821');
    expect(rowOf(page, orders.usd12000).join('')).toContain('•••• 1111');
    // The cancel's notification carries no card: its payment's is shown.
    expect(rowOf(page, orders.partlyCancelled).join('')).toContain('•••• 0007');
    expect(page).not.toContain('4111111111111111');
    expect(page).not.toContain('411111');
    expect(page).toContain('Card (last 4)');
    expect((await search('12000', korean).expect(200)).text).toContain('카드 (끝 4자리)');
  });

  test('a cancel is found by the amount it cancelled, as the ledger reads it, never by the payment\'s amount it repeats', async () => {
    const page = await search('9,000원').expect(200);
    expect(listed(page.text)).toEqual(['oddCancel']);
    expect(rowOf(page.text, orders.oddCancel).join('')).toContain('cancel amount');
    expect(rowOf(page.text, orders.oddCancel).join('')).toContain('₩9,000');
    // ₩40,000 is what it paid: the payment alone matches, and opens it.
    await endsOn('40,000원', orders.oddCancel);
    const refundPage = await search('8,000원').expect(200);
    expect(listed(refundPage.text)).toEqual(['refundOnly']);
    expect(rowOf(refundPage.text, orders.refundOnly).join('')).toContain('cancel amount');
  });

  test('a declined approval\'s amount and a failed refund\'s are listed as what they are, never as a payment or a refund', async () => {
    const declined = await search('21,000원').expect(200);
    expect(listed(declined.text)).toEqual(['declined']);
    expect(rowOf(declined.text, orders.declined).join('')).toContain('declined (moved no money)');
    expect(rowOf(declined.text, orders.declined).join('')).not.toContain('payment amount');
    const failed = await search('6,000원').expect(200);
    expect(listed(failed.text)).toEqual(['refundFailed']);
    expect(rowOf(failed.text, orders.refundFailed).join('')).toContain('failed refund amount');
    const ko = (await search('21,000원', korean).expect(200)).text;
    expect(rowOf(ko, orders.declined).join('')).toContain('실패한 거래');
    expect(rowOf(ko, orders.declined).join('')).not.toContain('결제 금액');
    // Found by its number, it opens as any order does.
    await endsOn(orders.declined, orders.declined);
    // A later declined attempt does not hide the payment: the order paid ₩13,000, and opens.
    await endsOn('13,000원', orders.paidThenDeclined);
  });

  test('an order the daily summary has not counted (projected before it existed) is still found in its own currency', async () => {
    for (const no of [orders.usd120, orders.usd12000, orders.won1200000]) {
      await rawSql(h.ledgerApp.databaseUrl, 'UPDATE ledger_orders SET summary_day = NULL WHERE shop_order_no = ?', no);
    }
    expect(listed((await search('12000').expect(200)).text)).toEqual(['partlyCancelled', 'usd12000', 'won12000']);
    await endsOn('$120', orders.usd120);
  });
}

describe('amounts in the Orders search box, on SQLite', () => {
  amountSearch(async () => {
    const h = await startLedgerConsole();
    return { h, cleanup: () => h.close() };
  });
});

describePostgres('amounts in the Orders search box, on PostgreSQL', () => {
  amountSearch(async () => {
    const schema = await createTestSchema();
    const h = await startLedgerConsole({ databaseUrl: schema.url });
    return { h, cleanup: async () => { await h.close(); await schema.drop(); } };
  });
});
