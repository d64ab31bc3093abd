import type request from 'supertest';
import { kstDay } from '../../src/ledger/summary/kst-day';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification, depositNotification } from '../../src/simulator/notification-builders';
import { HOST, ORIGIN } from '../console/console-harness';
import { startLedgerConsole, type LedgerConsole } from '../console/ledger-console-harness';

const MALL = 'T0001234';
const DAY = '2026-11-16';
const kst = (iso: string) => kstStamp(new Date(iso));
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('closing a day from the day page', () => {
  let h: LedgerConsole;
  const today = kstDay(new Date().toISOString());
  const page = async (agent: request.Agent, path: string, language = 'en') => (await agent.get(path).set('Host', HOST).set('Accept-Language', language).expect(200)).text;
  const post = (session: { agent: request.Agent; csrf: string }, path: string, form: Record<string, string>) =>
    session.agent.post(path).set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: session.csrf, ...form });

  beforeAll(async () => {
    h = await startLedgerConsole();
    await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-C1', pgCno: 'PG-C1', amount: '30000', transactionDate: kst('2026-11-16T03:00:00Z') })).expect(200);
    await h.ledgerApp.stores.ledger.caughtUp();
  });
  afterAll(() => h.close());

  test('a viewer sees the day open and no button; an operator confirms and closes it; later money shows on both days; only an admin reopens', async () => {
    const viewer = await h.signIn('viewer-lee', 'viewer');
    const open = await page(viewer.agent, `/console/summary/${DAY}?mall=${MALL}`);
    expect(open).toContain('data-closed="false"');
    expect(open).not.toContain(`action="/console/summary/${DAY}/close"`);
    await post(viewer, `/console/summary/${DAY}/close`, { mall: MALL, confirm: 'yes' }).expect(403);

    const operator = await h.signIn('kim', 'operator');
    expect(await page(operator.agent, `/console/summary/${DAY}?mall=${MALL}`)).toContain(`action="/console/summary/${DAY}/close"`);
    const confirm = await post(operator, `/console/summary/${DAY}/close`, { mall: MALL }).expect(200);
    expect(text(confirm.text)).toContain(`Close ${DAY}?`);
    expect(text(confirm.text)).toContain('₩30,000');
    expect(await h.ledgerApp.stores.ledger.dayCloses(DAY, DAY, MALL)).toEqual([]);
    const done = await post(operator, `/console/summary/${DAY}/close`, { mall: MALL, confirm: 'yes' }).expect(303);
    expect(done.headers.location).toBe(`/console/summary/${DAY}?mall=${MALL}&done=day-closed`);
    const closed = await page(operator.agent, done.headers.location as string);
    expect(closed).toContain('data-closed="true"');
    expect(text(closed)).toContain('The day is closed: its figures and export stay as they are now.');
    expect(text(closed)).toMatch(/Closed by kim \([^)]*\) at 20\d\d/);
    // An operator is not offered Reopen, and is refused it.
    expect(closed).not.toContain(`action="/console/summary/${DAY}/reopen"`);
    await post(operator, `/console/summary/${DAY}/reopen`, { mall: MALL, confirm: 'yes' }).expect(403);

    // A deposit dated on the closed day arrives today.
    await h.ledgerApp.notify(depositNotification({ mallId: MALL, shopOrderNo: 'ORD-C2', pgCno: 'PG-C2', amount: '4500', depositDate: kst('2026-11-16T05:00:00Z') })).expect(200);
    await h.ledgerApp.stores.ledger.caughtUp();
    const after = text(await page(operator.agent, `/console/summary/${DAY}?mall=${MALL}`));
    expect(after).toContain('Net ₩30,000');
    // The closed day's list of orders is the one kept at the close: the late order is on the day it arrived.
    expect(after).toContain('As they stood when the day was closed');
    expect(after).toContain('ORD-C1');
    expect(after).not.toContain('ORD-C2');
    expect(after).toContain(`Adjusted later (on ${today}) +₩4,500`);
    const arrival = text(await page(operator.agent, `/console/summary/${today}?mall=${MALL}`));
    expect(arrival).toContain(`Adjustment of ${DAY} (closed) 1 item +₩4,500`);
    expect(arrival).toContain('Net with adjustments ₩4,500');
    // The month: the closed day marked, its cell as it was closed; the money counted once in the month's totals, on the day it arrived.
    const november = await page(operator.agent, `/console/summary?month=2026-11&mall=${MALL}`);
    const cell = (html: string, day: string) => new RegExp(`<td class="[^"]*" data-day="${day}">([\\s\\S]*?)</td>`).exec(html)?.[1] ?? '';
    expect(cell(november, DAY)).toContain('closed-mark');
    expect(cell(november, DAY)).toContain('₩30,000');
    if (today.startsWith('2026-11')) expect(text(november)).toMatch(/Net ₩34,500/);
    else expect(cell(await page(operator.agent, `/console/summary?mall=${MALL}`), today)).toContain('₩4,500');
    const korean = text(await page(operator.agent, `/console/summary/${DAY}?mall=${MALL}`, 'ko'));
    expect(korean).toContain(`이후 조정 (${today}) +4,500원`);
    expect(korean).toContain('마감');

    const audit = await h.ledgerApp.stores.store.listAudit(20);
    expect(audit.find((a) => a.action === 'closed day')).toMatchObject({ actor: expect.stringMatching(/^kim /), subject: `${DAY} ${MALL}` });

    const admin = await h.signIn('park', 'admin');
    expect(await page(admin.agent, `/console/summary/${DAY}?mall=${MALL}`)).toContain(`action="/console/summary/${DAY}/reopen"`);
    const reopened = await post(admin, `/console/summary/${DAY}/reopen`, { mall: MALL, confirm: 'yes' }).expect(303);
    expect(reopened.headers.location).toBe(`/console/summary/${DAY}?mall=${MALL}&done=day-reopened`);
    const live = text(await page(admin.agent, `/console/summary/${DAY}?mall=${MALL}`));
    expect(live).toContain('Net ₩34,500');
    expect(live).toContain('ORD-C2');
    expect((await h.ledgerApp.stores.store.listAudit(20)).find((a) => a.action === 'reopened day')).toMatchObject({ actor: expect.stringMatching(/^park /) });
  });

  test('a payout day shows what is paid out and from which days, fees on the transactions\' day, and a payout whose rows do not add up with the row and the difference', async () => {
    await h.ledgerApp.stores.ledger.putSettlementRows('statement-7', 'T0007777', [
      { line: 2, pgCno: 'PG-S1', cancelPgCno: null, shopOrderNo: 'ORD-S1', gross: 10000, fee: 300, feeVat: 30, payout: 9670, payoutDay: '2026-11-20', transactionDay: '2026-11-18' },
      { line: 3, pgCno: 'PG-S2', cancelPgCno: null, shopOrderNo: 'ORD-S2', gross: 20000, fee: 600, feeVat: 60, payout: 19400, payoutDay: '2026-11-20', transactionDay: '2026-11-19' },
    ]);
    const viewer = await h.signIn('viewer-han', 'viewer');
    const payoutDay = text(await page(viewer.agent, '/console/summary/2026-11-20?mall=T0007777'));
    expect(payoutDay).toContain('Paid out this day 2 items ₩29,070');
    expect(payoutDay).toContain('for transactions of 2026-11-18 1 item ₩9,670');
    expect(payoutDay).toContain('for transactions of 2026-11-19 1 item ₩19,400');
    expect(payoutDay).toContain('Payouts that do not add up');
    expect(payoutDay).toMatch(/the statement pays out ₩29,070; its rows(&#39;|') gross less fees and VAT make ₩29,010\. Difference: ₩60/);
    expect(payoutDay).toMatch(/3 PG-S2 ₩20,000 ₩600 ₩60 ₩19,400 ₩60/);
    const transactionDay = text(await page(viewer.agent, '/console/summary/2026-11-18?mall=T0007777', 'ko'));
    expect(transactionDay).toContain('수수료 합계 (부가세 포함) 330원');
    expect(transactionDay).toContain('이 날 거래의 정산 예정 금액 9,670원');
  });

  test('today cannot be closed: no button, and a POST is refused with the reason in the page\'s language', async () => {
    const operator = await h.signIn('choi', 'operator');
    const todayPage = await page(operator.agent, `/console/summary/${today}`);
    expect(todayPage).not.toContain(`action="/console/summary/${today}/close"`);
    const refused = await post(operator, `/console/summary/${today}/close`, { confirm: 'yes' }).set('Accept-Language', 'ko').expect(400);
    expect(text(refused.text)).toContain('한국 시간으로 아직 끝나지 않았습니다');
  });
});
