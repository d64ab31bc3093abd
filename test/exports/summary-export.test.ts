import request from 'supertest';
import type { SummaryDay } from '../../src/ledger/summary/summary-days';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification, changeNotification, depositNotification, transferFailedNotification } from '../../src/simulator/notification-builders';
import { HOST } from '../console/console-harness';
import { startLedgerConsole, type LedgerConsole } from '../console/ledger-console-harness';
import { eventually } from '../helpers/eventually';
import { createTestSchema, describePostgres } from '../store/pg-test-database';
import { parseCsvAsShown, parseXlsx, type SheetCell } from './xlsx-sheet';
import { binary, bytes } from './download';

const MALL = 'T0001234';
const OTHER_MALL = 'T0009999';
const kst = (iso: string) => kstStamp(new Date(iso));
const kstDay = (at = new Date()) => new Date(at.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?$/;
const METHODS = ['card', 'transfer', 'vaccount', 'mobile', 'prepaid', 'wallet', 'other', 'unknown'] as const;

/** A day's figures as the file should hold them, in column order (amounts in minor units). */
function figuresOf(d: SummaryDay): Array<string | number> {
  const pair = (f: { count: number; amount: number } | undefined) => [f?.count ?? 0, f?.amount ?? 0];
  return [
    d.date, d.mallId, d.currency,
    ...pair(d.payments), ...pair(d.cancels), ...pair(d.deposits), ...pair(d.depositCancels), ...pair(d.refundsFailed), d.refundsFailed.unknownCount,
    d.net, d.discrepancies.opened, d.discrepancies.resolved,
    ...METHODS.flatMap((m) => pair(d.payments.byMethod[m])),
    // The simulator's orders, in columns of their own at the end.
    ...pair(d.simulated.payments), ...pair(d.simulated.cancels), ...pair(d.simulated.deposits), ...pair(d.simulated.depositCancels), ...pair(d.simulated.refundsFailed),
    d.simulated.net,
  ];
}
/** Which columns are amounts (the rest are the key and counts), by the same column order: every second one from 4 but the unknown count's and the discrepancies'. */
const AMOUNT_COLUMNS = new Set([4, 6, 8, 10, 12, 14, ...Array.from({ length: 8 + 5 }, (_, i) => 18 + 2 * i), 43]);
const major = (minor: number, currency: string) => (currency === 'USD' ? minor / 100 : minor);
/** Excel's serial day of a calendar day (days since 1899-12-30). */
const excelDay = (day: string) => (Date.parse(`${day}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / 86_400_000;

function summaryExportSuite(open: () => Promise<LedgerConsole>): void {
  let h: LedgerConsole;
  beforeEach(async () => {
    h = await open();
  });
  afterEach(async () => h.close());

  const notify = (body: Record<string, string>) => h.ledgerApp.notify(body).expect(200);
  const today = kstDay();

  /** October: a card payment on the 15th, a third of it cancelled on the 16th; today: dollars, an order paid twice, another mall. */
  async function bookings(): Promise<void> {
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/ORD-OCT/expectation`, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null }).expect(200);
    await notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-OCT', pgCno: 'PG-OCT', amount: '30000', transactionDate: kst('2026-10-15T03:00:00Z') }));
    await notify(changeNotification({ mallId: MALL, shopOrderNo: 'ORD-OCT', pgCno: 'PG-OCT', cancelPgCno: 'CX-OCT', cancelAmount: '10000', amount: '10000', cancelRemainAmount: '20000', cancelDate: kst('2026-10-16T01:00:00Z') }));
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/ORD-USD/expectation`, { amount: 1203, currency: 'USD', method: 'card', expiresAt: null }).expect(200);
    await notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-USD', pgCno: 'PG-USD', amount: '1203', transactionDate: kstStamp() }));
    await notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-TWICE', pgCno: 'PG-T1', amount: '5000', transactionDate: kstStamp() }));
    await notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-TWICE', pgCno: 'PG-T2', amount: '5000', transactionDate: kstStamp() }));
    // Paid by a wallet as the gateway says (its method code), though the shop registered nothing.
    await notify(approvalNotification({ mallId: OTHER_MALL, shopOrderNo: 'ORD-ELSE', pgCno: 'PG-ELSE', amount: '700', transactionDate: kstStamp(), payMethodTypeCode: '60' }));
    await h.ledgerApp.stores.ledger.caughtUp();
  }

  test('the daily money as .xlsx in Korean and CSV in English: one row per day, mall and currency with the store\'s and the API\'s figures, amounts in the major unit with their format, payments by method as columns', async () => {
    await bookings();
    const from = '2026-10-01';
    const days = await h.ledgerApp.stores.ledger.dailySummary({ from, to: today, mallId: null }, 'KRW');
    const api = (await h.ledgerApp.api.get(`/v1/summary/daily?from=${from}&to=${today}`).expect(200)).body as { days: SummaryDay[] };
    expect(api.days).toEqual(days);
    // Something on each side of a cancel, in two currencies and two malls, by two methods.
    expect(days.some((d) => d.net < 0)).toBe(true);
    expect(new Set(days.map((d) => `${d.mallId} ${d.currency}`))).toEqual(new Set([`${MALL} KRW`, `${MALL} USD`, `${OTHER_MALL} KRW`]));
    expect(days.some((d) => d.payments.byMethod.wallet) && days.some((d) => d.payments.byMethod.card)).toBe(true);
    const { agent } = await h.signIn('kim', 'operator');

    const xlsx = await binary(agent.get(`/console/exports/summary.xlsx?from=${from}&to=${today}`).set('Host', HOST).set('Accept-Language', 'ko-KR')).expect(200);
    expect(xlsx.headers['content-disposition']).toBe(`attachment; filename="summary_${from}_${today}.xlsx"`);
    const book = parseXlsx(bytes(xlsx));
    expect(book.sheetNames).toEqual(['일별 정산']);
    const [header, ...rows] = book.sheets[0]!;
    expect(header!.map((c) => c?.value).slice(0, 5)).toEqual(['날짜 (KST)', '상점 ID (mallId)', '통화', '결제 승인 건수', '결제 승인 금액']);
    expect(header!.map((c) => c?.value)).toContain('결제 승인 · 카드 금액');
    // The days, then one total line per currency.
    expect(rows).toHaveLength(days.length + new Set(days.map((d) => d.currency)).size);
    for (const [i, day] of days.entries()) {
      const format = day.currency === 'KRW' ? '#,##0"원"' : '"$"#,##0.00';
      figuresOf(day).forEach((expected, column) => {
        const cell = rows[i]![column] as SheetCell;
        // The day is an Excel date (a serial day with a date format), the mall and currency text.
        if (column === 0) expect(cell).toEqual({ type: 'number', value: excelDay(expected as string), format: 'yyyy-mm-dd' });
        else if (column < 3) expect(cell.value).toBe(expected);
        else if (AMOUNT_COLUMNS.has(column)) expect(cell).toEqual({ type: 'number', value: major(expected as number, day.currency), format });
        else expect(cell).toMatchObject({ type: 'number', value: expected });
      });
    }

    const csv = await binary(agent.get(`/console/exports/summary.csv?from=${from}&to=${today}`).set('Host', HOST).set('Accept-Language', 'en')).expect(200);
    const [csvHeader, ...csvRows] = parseCsvAsShown(bytes(csv).toString('utf8').slice(1));
    expect(csvHeader!.slice(0, 5)).toEqual(['date (KST)', 'mallId', 'currency', 'approved payments count', 'approved payments amount']);
    expect(csvHeader).toContain('approved payments, method not stated count');
    // The close's and the settlement statement's columns follow (test/day-close/close-export.test.ts): empty on a day that has neither.
    const figures = figuresOf(days[0]!).length;
    expect(csvRows.slice(0, days.length).map((row) => row.slice(figures))).toEqual(days.map(() => ['', '', '', '', '', '']));
    expect(csvRows.slice(0, days.length).map((row) => row.slice(0, figures).map((cell, column) => (column < 3 ? cell : Number(cell))))).toEqual(
      days.map((d) => figuresOf(d).map((value, column) => (AMOUNT_COLUMNS.has(column) ? major(value as number, d.currency) : value))),
    );
    const usd = csvRows.find((row) => row[2] === 'USD')!;
    expect(usd[csvHeader!.indexOf('approved payments amount')]).toBe('12.03');

    // The mall filter narrows the file as it narrows the month view; a day page's file is its day alone.
    const one = parseCsvAsShown(bytes(await binary(agent.get(`/console/exports/summary.csv?from=${today}&to=${today}&mall=${OTHER_MALL}`).set('Host', HOST)).expect(200)).toString('utf8').slice(1));
    expect(one.slice(1).map((row) => row.slice(0, 5))).toEqual([[today, OTHER_MALL, 'KRW', '1', '700'], ['total', '', 'KRW', '1', '700']]);
    // More than the summary answers at once, or backwards: no file, and a 400 that says why.
    await agent.get('/console/exports/summary.csv?from=2020-01-01&to=2026-10-01').set('Host', HOST).expect(400);
    await agent.get(`/console/exports/summary.csv?from=${today}&to=2026-10-01`).set('Host', HOST).expect(400);
  });

  test('money paid into a virtual account is under the columns named for deposits into a virtual account, in both languages, and nowhere else but the net', async () => {
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/ORD-VA/expectation`, { amount: 45000, currency: 'KRW', method: 'vaccount', expiresAt: null }).expect(200);
    await notify(depositNotification({ mallId: MALL, shopOrderNo: 'ORD-VA', pgCno: 'PG-VA', amount: '45000', depositDate: kst('2026-10-20T03:00:00Z') }));
    await h.ledgerApp.stores.ledger.caughtUp();
    const { agent } = await h.signIn('kim', 'operator');
    const path = '/console/exports/summary.csv?from=2026-10-20&to=2026-10-20';
    for (const [language, deposits, net] of [['ko-KR', '가상계좌 입금', '순액'], ['en', 'virtual account deposits', 'net']] as const) {
      const [header, row] = parseCsvAsShown(bytes(await binary(agent.get(path).set('Host', HOST).set('Accept-Language', language)).expect(200)).toString('utf8').slice(1));
      const holding = (value: string) => header!.filter((_, column) => row![column] === value);
      expect(holding('45000')).toEqual([`${deposits} ${language === 'en' ? 'amount' : '금액'}`, net]);
      expect(holding('1')).toEqual([`${deposits} ${language === 'en' ? 'count' : '건수'}`]);
    }
  });

  test('a failed refund whose amount cannot be known is written as unknown with its count, in both languages, never as 0', async () => {
    await notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-51', pgCno: 'PG-51', amount: '7000', transactionDate: kst('2026-10-21T01:00:00Z') }));
    const failed: Record<string, string> = transferFailedNotification({ mallId: MALL, shopOrderNo: 'ORD-51', pgCno: 'PG-51', refundDate: kst('2026-10-21T02:00:00Z') });
    delete failed.amount;
    await notify(failed);
    await h.ledgerApp.stores.ledger.caughtUp();
    const { agent } = await h.signIn('kim', 'operator');
    const path = '/console/exports/summary.%s?from=2026-10-21&to=2026-10-21';
    for (const [language, amount, unknown, word] of [['ko-KR', '환불 실패 금액', '환불 실패 중 금액 알 수 없음 건수', '알 수 없음'], ['en', 'refunds failed amount', 'refunds failed with amount unknown count', 'unknown']] as const) {
      const [header, row] = parseCsvAsShown(bytes(await binary(agent.get(path.replace('%s', 'csv')).set('Host', HOST).set('Accept-Language', language)).expect(200)).toString('utf8').slice(1));
      expect([row![header!.indexOf(amount)], row![header!.indexOf(unknown)]]).toEqual([word, '1']);
    }
    const book = parseXlsx(bytes(await binary(agent.get(path.replace('%s', 'xlsx')).set('Host', HOST).set('Accept-Language', 'en')).expect(200)));
    const [header, row] = book.sheets[0]!;
    expect(row![header!.findIndex((c) => c?.value === 'refunds failed amount')]).toMatchObject({ type: 'text', value: 'unknown' });
  });

  test('no text cell can run as a formula, and a negative net stays a number', async () => {
    await bookings();
    const { agent } = await h.signIn('kim', 'operator');
    const path = '/console/exports/summary.%s?from=2026-10-16&to=2026-10-16';
    const book = parseXlsx(bytes(await binary(agent.get(path.replace('%s', 'xlsx')).set('Host', HOST)).expect(200)));
    const csv = parseCsvAsShown(bytes(await binary(agent.get(path.replace('%s', 'csv')).set('Host', HOST)).expect(200)).toString('utf8').slice(1));
    const texts = book.sheets.flat(2).filter((c): c is SheetCell => c?.type === 'text').map((c) => String(c.value));
    expect(texts.filter((t) => FORMULA_START.test(t))).toEqual([]);
    expect(csv.flat().filter((t) => FORMULA_START.test(t) && !NUMBER.test(t))).toEqual([]);
    expect(book.sheetXml.join('')).not.toMatch(/<f[ >]/);
    const net = csv[0]!.indexOf('net');
    expect(csv[1]![net]).toBe('-10000');
    expect(book.sheets[0]![1]![net]).toEqual({ type: 'number', value: -10000, format: '"₩"#,##0' });
  });

  test('a viewer gets 403 and sees no download row; an operator sees it on the month view for that month and on the day page for that day; the download is audited', async () => {
    await bookings();
    const viewer = await h.signIn('lee', 'viewer');
    await viewer.agent.get('/console/exports/summary.xlsx').set('Host', HOST).expect(403);
    for (const page of ['/console/summary?month=2026-10', '/console/summary/2026-10-16']) {
      expect((await viewer.agent.get(page).set('Host', HOST).expect(200)).text).not.toContain('data-export');
    }
    await request(h.admin).get('/console/exports/summary.csv').set('Host', HOST).expect(303);

    const { agent } = await h.signIn('kim', 'operator');
    const month = (await agent.get(`/console/summary?month=2026-02&mall=${MALL}`).set('Host', HOST).set('Accept-Language', 'ko-KR').expect(200)).text;
    expect(month).toContain('data-export="summary"');
    expect(month).toContain('formaction="/console/exports/summary.xlsx">엑셀 내려받기</button>');
    expect(month).toContain('formaction="/console/exports/summary.csv">CSV 내려받기</button>');
    expect(month).toMatch(/name="from" type="date" value="2026-02-01"/);
    expect(month).toMatch(/name="to" type="date" value="2026-02-28"/);
    expect(month).toContain(`<input type="hidden" name="mall" value="${MALL}">`);
    const day = (await agent.get('/console/summary/2026-10-16').set('Host', HOST).set('Accept-Language', 'en').expect(200)).text;
    expect(day).toContain('formaction="/console/exports/summary.xlsx">Excel (.xlsx)</button>');
    expect(day).toMatch(/name="from" type="date" value="2026-10-16"/);
    expect(day).toMatch(/name="to" type="date" value="2026-10-16"/);

    await binary(agent.get(`/console/exports/summary.xlsx?from=2026-10-16&to=2026-10-16&mall=${MALL}`).set('Host', HOST)).expect(200);
    // A bare link: this month so far, and the audit says which days.
    await binary(agent.get('/console/exports/summary.csv').set('Host', HOST)).expect(200);
    const audit = await eventually(async () => {
      const rows = (await h.consoleDeps.store.searchAudit({ action: 'exported', limit: 10 })).rows;
      return rows.length === 2 && rows;
    }, 10_000, 'two audit rows');
    expect(audit.map((row) => [row.actor.split(' ')[0], row.subject, row.detail])).toEqual([
      ['kim', 'summary.csv', expect.stringMatching(new RegExp(`^range … to …; filters days=${today.slice(0, 7)}-01\\.\\.${today}; \\d+ rows; complete$`))],
      // The day's row and its currency's total line.
      ['kim', 'summary.xlsx', `range 2026-10-16 to 2026-10-16; filters mall=${MALL}; 2 rows; complete`],
    ]);
  });

  test.each([
    ['summary.csv', 'from=0000-01-01&to=9999-12-31', 'From 0000-01-01 to 9999-12-31 is 3652425 days, more than 366: choose a shorter range.', '0000-01-01부터 9999-12-31까지는 3652425일로 366일을 넘습니다.'],
    ['summary.xlsx', 'from=2025-01-01&to=2026-01-02', 'is 367 days, more than 366', '367일로 366일을 넘습니다'],
    ['summary.csv', 'from=2026-13-01&to=2026-13-02', 'From: 2026-13-01 is not a day (YYYY-MM-DD).', '시작일이 날짜가 아닙니다: 2026-13-01 (연-월-일로 적으세요. 예: 2026-12-02)'],
    ['summary.csv', 'from=2026-02-01&to=2026-02-29', 'To: 2026-02-29 is not a day (YYYY-MM-DD).', '종료일이 날짜가 아닙니다: 2026-02-29 (연-월-일로 적으세요. 예: 2026-12-02)'],
    ['summary.csv', 'from=2026-10-16&to=2026-10-15', 'To (2026-10-15) is before From (2026-10-16).', '종료일(2026-10-15)이 시작일(2026-10-16)보다 앞섭니다.'],
    ['orders.csv', 'from=2026-12-32', 'From: 2026-12-32 is not a day (YYYY-MM-DD).', '시작일이 날짜가 아닙니다: 2026-12-32'],
    ['events.xlsx', 'from=2026-10-16&to=2026-10-15', 'To (2026-10-15) is before From (2026-10-16).', '보다 앞섭니다'],
    ['discrepancies.csv', 'to=2026-10-161', 'To: 2026-10-161 is not a day (YYYY-MM-DD).', '종료일이 날짜가 아닙니다: 2026-10-161'],
  ])('%s?%s is refused at once with a 400 that says what is wrong, in each language, and nothing is audited', async (file, query, english, korean) => {
    const { agent } = await h.signIn('kim', 'operator');
    const en = await agent.get(`/console/exports/${file}?${query}`).set('Host', HOST).set('Accept-Language', 'en').expect(400);
    expect(en.headers['content-type']).toMatch(/^text\/html/);
    expect(en.text).toContain(english);
    expect((await agent.get(`/console/exports/${file}?${query}`).set('Host', HOST).set('Accept-Language', 'ko-KR').expect(400)).text).toContain(korean);
    expect((await h.consoleDeps.store.searchAudit({ action: 'exported', limit: 10 })).rows).toEqual([]);
  });

  test('a leap day is a day to export', async () => {
    const { agent } = await h.signIn('kim', 'operator');
    await binary(agent.get('/console/exports/summary.csv?from=2024-02-29&to=2024-02-29').set('Host', HOST)).expect(200);
  });
}

describe('the daily money as an export, on SQLite', () => {
  summaryExportSuite(() => startLedgerConsole());
});

describePostgres('the daily money as an export, on PostgreSQL', () => {
  summaryExportSuite(async () => {
    const schema = await createTestSchema();
    const h = await startLedgerConsole({ databaseUrl: schema.url });
    return { ...h, close: async () => { await h.close(); await schema.drop(); } };
  });
});
