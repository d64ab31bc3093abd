import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createAdminApp } from '../../src/admin/admin-app';
import type { ConsoleDeps } from '../../src/console/console-deps';
import { EVENT_EXPORT_PAGE_SIZE } from '../../src/exports/sources/page-size';
import { createMetrics } from '../../src/observability/metrics';
import type { OrderRecord } from '../../src/ledger/fold/order-record';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification } from '../../src/simulator/notification-builders';
import type { Store } from '../../src/store/store';
import { HOST } from '../console/console-harness';
import { startLedgerConsole, type LedgerConsole } from '../console/ledger-console-harness';
import { eventually } from '../helpers/eventually';
import { inboxEntry } from '../helpers/stored-events';
import { createTestSchema, describePostgres } from '../store/pg-test-database';
import { parseCsvAsShown, parseXlsx, type SheetCell } from './xlsx-sheet';
import { binary, bytes } from './download';

const MALL = 'T0001234';
let serial = 0;
const orderNo = (tag = 'ORD-EXP') => `${tag}-${Date.now()}-${++serial}`;
const kstDay = (at = new Date()) => new Date(at.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** Excel's serial day of an instant's wall clock in Korea. */
const kstSerial = (iso: string) => (Date.parse(iso) + 9 * 3600_000 - Date.UTC(1899, 11, 30)) / 86_400_000;
const kstText = (iso: string) => new Date(Date.parse(iso) + 9 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');

/** Every text cell of a workbook or a CSV, for the probes. */
const xlsxTexts = (book: ReturnType<typeof parseXlsx>) => book.sheets.flat(2).filter((c): c is SheetCell => c?.type === 'text').map((c) => String(c.value));

function exportsSuite(open: () => Promise<LedgerConsole>): void {
  let h: LedgerConsole;
  beforeEach(async () => {
    h = await open();
  });
  afterEach(async () => h.close());

  const pay = (shopOrderNo: string, amount: number, extra: Record<string, string> = {}) =>
    h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo, amount: String(amount), transactionDate: kstStamp(new Date()), ...extra })).expect(200);
  const records = async (): Promise<OrderRecord[]> => (await h.consoleDeps.ledger!.listOrders({ limit: 1000, newestFirst: true })).orders;

  test('orders as .xlsx in Korean and as CSV in English: every order of the range as the ledger records it, amounts in the major unit with their format and currency, times in KST', async () => {
    const won = orderNo();
    const dollars = orderNo();
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/${won}/expectation`, { amount: 12000, currency: 'KRW', method: 'card', expiresAt: null }).expect(200);
    await pay(won, 1200);
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/${dollars}/expectation`, { amount: 1203, currency: 'USD', method: 'card', expiresAt: null }).expect(200);
    await pay(dollars, 1203);
    await h.ledgerApp.api.get(`/v1/orders/${MALL}/${dollars}`).expect(200);
    const orders = await records();
    expect(orders.map((o) => o.shopOrderNo).sort()).toEqual([won, dollars].sort());
    const { agent } = await h.signIn('kim', 'operator');
    const today = kstDay();

    const xlsx = await binary(agent.get(`/console/exports/orders.xlsx?from=${today}&to=${today}`).set('Host', HOST).set('Accept-Language', 'ko-KR')).expect(200);
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.headers['content-disposition']).toBe(`attachment; filename="orders_${today}_${today}.xlsx"`);
    const book = parseXlsx(bytes(xlsx));
    expect(book.sheetNames).toEqual(['주문']);
    const [header, ...rows] = book.sheets[0]!;
    const headers = header!.map((c) => c?.value);
    expect(headers.slice(0, 8)).toEqual(['최종 변경 (KST, UTC+09:00)', '상점 ID (mallId)', '주문번호 (shopOrderNo)', '상태', '상태 코드', '통화', '기대 금액', '승인 금액']);
    const column = (name: string) => headers.indexOf(name);
    expect(rows).toHaveLength(orders.length);
    for (const [i, order] of orders.entries()) {
      const row = rows[i]!;
      const currency = order.expected!.currency;
      const format = currency === 'KRW' ? '#,##0"원"' : '"$"#,##0.00';
      const major = currency === 'KRW' ? order.approved : order.approved / 100;
      expect(row[column('주문번호 (shopOrderNo)')]!.value).toBe(order.shopOrderNo);
      expect(row[column('상태 코드')]!.value).toBe(order.status);
      expect(row[column('통화')]!.value).toBe(currency);
      expect(row[column('승인 금액')]).toEqual({ type: 'number', value: major, format });
      expect(row[column('기대 금액')]).toEqual({ type: 'number', value: currency === 'KRW' ? 12000 : 12.03, format });
      expect(row[column('잔액')]).toEqual({ type: 'number', value: currency === 'KRW' ? order.remaining : order.remaining / 100, format });
      expect(row[0]!.format).toBe('yyyy-mm-dd hh:mm:ss');
      expect(row[0]!.value).toBeCloseTo(kstSerial(order.updatedAt), 7);
    }
    expect(rows.find((row) => row[column('주문번호 (shopOrderNo)')]!.value === won)![column('상태')]!.value).toBe('불일치');

    const csv = await binary(agent.get(`/console/exports/orders.csv?from=${today}&to=${today}`).set('Host', HOST).set('Accept-Language', 'en')).expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const text = bytes(csv).toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [csvHeader, ...csvRows] = parseCsvAsShown(text.slice(1));
    expect(csvHeader!.slice(0, 4)).toEqual(['updated (KST, UTC+09:00)', 'mallId', 'shopOrderNo', 'status']);
    expect(csvRows.map((row) => row[2])).toEqual(orders.map((o) => o.shopOrderNo));
    const usd = csvRows.find((row) => row[2] === dollars)!;
    expect(usd[csvHeader!.indexOf('approved')]).toBe('12.03');
    expect(usd[csvHeader!.indexOf('currency')]).toBe('USD');
    expect(usd[0]).toBe(kstText(orders.find((o) => o.shopOrderNo === dollars)!.updatedAt));
    expect(csvRows.find((row) => row[2] === won)![csvHeader!.indexOf('approved')]).toBe('1200');

    // A range before any order: the header alone.
    const empty = await binary(agent.get('/console/exports/orders.csv?from=2020-01-01&to=2020-01-31').set('Host', HOST)).expect(200);
    expect(parseCsvAsShown(bytes(empty).toString('utf8').slice(1))).toHaveLength(1);
  });

  test('a text that a spreadsheet would run as a formula is neutralised in every column of both formats, and personal data comes out masked as the event page shows it', async () => {
    const probes = {
      shopValue1: '=HYPERLINK("http://evil.example","x")', shopValue2: '+1+1', shopValue3: '-2+3', shopValue4: '@SUM(A1:A9)',
      shopValue5: '\t=1', shopValue6: '\r=1', issuerName: '=비씨카드', approvalNo: '-30012345', resMsg: '=2+2 정상', statusMessage: '@매입',
    };
    const order = orderNo('-ORD');
    await pay(order, 3000, { ...probes, customerName: '=홍길동', customerContactNo: '01012345678', cardNo: '4111111111111111' });
    await pay(orderNo(), 1000, { shopValue1: 'card 4111-1111-1111-1111 paid', customerName: '김철수' });
    const { agent } = await h.signIn('kim', 'operator');
    const book = parseXlsx(bytes(await binary(agent.get('/console/exports/events.xlsx').set('Host', HOST)).expect(200)));
    const csvText = bytes(await binary(agent.get('/console/exports/events.csv').set('Host', HOST)).expect(200)).toString('utf8');
    const csv = parseCsvAsShown(csvText.slice(1));
    const ordersBook = parseXlsx(bytes(await binary(agent.get('/console/exports/orders.xlsx').set('Host', HOST)).expect(200)));
    const ordersCsv = parseCsvAsShown(bytes(await binary(agent.get('/console/exports/orders.csv').set('Host', HOST)).expect(200)).toString('utf8').slice(1));

    const texts = [...xlsxTexts(book), ...xlsxTexts(ordersBook)];
    expect(texts.filter((t) => FORMULA_START.test(t))).toEqual([]);
    expect([...csv, ...ordersCsv].flat().filter((t) => FORMULA_START.test(t) && !NUMBER.test(t))).toEqual([]);
    for (const probe of [...Object.values(probes), order]) {
      expect(texts).toContain(`'${probe}`);
      expect(csv.flat().concat(ordersCsv.flat())).toContain(`'${probe}`);
    }
    expect(book.sheetXml.join('')).not.toMatch(/<f[ >]/);

    const everything = book.sheetXml.join('') + csvText;
    for (const secret of ['4111111111111111', '4111-1111-1111-1111', '홍길동', '김철수', '01012345678']) expect(everything).not.toContain(secret);
    const [header, ...rows] = csv;
    const row = rows.find((r) => r[header!.indexOf('shopOrderNo')] !== `'${order}` && r[header!.indexOf('shopValue1')]!.startsWith('card'))!;
    const masked = row[header!.indexOf('shopValue1')]!;
    expect(masked).toBe('card 4111-11**-****-1111 paid');
    // As the event's own page shows it.
    const eventPage = (await agent.get(`/console/events/${row[header!.indexOf('event id')]}`).set('Host', HOST).expect(200)).text;
    expect(eventPage).toContain(masked);
    expect(row[header!.indexOf('customerName')]).toBe('김**');
    expect(eventPage).toContain('김**');
  });

  test('a viewer gets 403 and sees no download button; an operator sees both, in Korean; each download is audited with who, what, range, filters and rows', async () => {
    await pay(orderNo(), 1000);
    const viewer = await h.signIn('lee', 'viewer');
    const refused = await viewer.agent.get('/console/exports/orders.xlsx').set('Host', HOST).expect(403);
    // A zip (the .xlsx) starts with PK; a CSRF token in the refusal page may hold those letters anywhere.
    expect(refused.text.startsWith('PK')).toBe(false);
    for (const page of ['/console/orders', '/console/events', '/console/discrepancies']) {
      expect((await viewer.agent.get(page).set('Host', HOST).expect(200)).text).not.toContain('data-export');
    }
    await request(h.admin).get('/console/exports/orders.csv').set('Host', HOST).expect(303);

    const { agent } = await h.signIn('kim', 'operator');
    for (const list of ['orders', 'events', 'discrepancies']) {
      const page = (await agent.get(`/console/${list}`).set('Host', HOST).set('Accept-Language', 'ko-KR').expect(200)).text;
      expect(page).toContain(`data-export="${list}"`);
      expect(page).toContain(`formaction="/console/exports/${list}.xlsx">엑셀 내려받기</button>`);
      expect(page).toContain(`formaction="/console/exports/${list}.csv">CSV 내려받기</button>`);
    }
    const filtered = (await agent.get('/console/orders?status=paid&from=2026-11-01&to=2026-11-27').set('Host', HOST).expect(200)).text;
    expect(filtered).toMatch(/<input type="hidden" name="status" value="paid">/);
    expect(filtered).toMatch(/name="from" type="date" value="2026-11-01"/);
    await agent.get('/console/exports/nothing.csv').set('Host', HOST).expect(404);

    const today = kstDay();
    await binary(agent.get(`/console/exports/orders.csv?status=paid&from=${today}&to=${today}`).set('Host', HOST)).expect(200);
    await binary(agent.get('/console/exports/discrepancies.xlsx?state=open').set('Host', HOST)).expect(200);
    // The audit row is written once the last byte has left: the client may see its file a moment before.
    const audit = await eventually(async () => {
      const rows = (await h.consoleDeps.store.searchAudit({ action: 'exported', limit: 10 })).rows;
      return rows.length === 2 && rows;
    }, 10_000, 'two audit rows');
    expect(audit.map((row) => [row.actor.split(' ')[0], row.subject, row.detail])).toEqual([
      ['kim', 'discrepancies.xlsx', 'range … to …; filters state=open; 0 rows; complete'],
      ['kim', 'orders.csv', `range ${today} to ${today}; filters status=paid; 1 rows; complete`],
    ]);
  });

  test('a large list is read from the store in keyset pages; a client that goes away midway, and a store that fails midway, are audited as such', async () => {
    const store = h.consoleDeps.store;
    const count = 2_500;
    for (let start = 0; start < count; start += 250) {
      await Promise.all(Array.from({ length: Math.min(250, count - start) }, (_v, i) => store.record(inboxEntry({
        pgCno: `2026112700${String(start + i).padStart(10, '0')}`, shopOrderNo: `BULK-${start + i}`, data: { shopValue1: `=bulk ${start + i}` },
      }))));
    }
    // The list holds the ledger's own event for each order too: the projector writes those after the
    // acks, on its own thread, so the export and the count below wait until it has applied them all:
    // a condition with a generous bound, not the 2 s a reader is promised, which a loaded machine's
    // projector can take for 2,500 orders.
    await h.ledgerApp.stores.ledger.caughtUp(120_000);
    const calls: Array<{ before: number | null; limit: number }> = [];
    let hold: Promise<void> | null = null;
    let failSecond = false;
    const counted: Store & ConsoleDeps['store'] = {
      ...store,
      exportEventsPage: async (search, before, limit) => {
        calls.push({ before, limit });
        if (hold && calls.length === 2) await hold;
        if (failSecond && calls.length === 2) throw new Error('the store went away');
        return store.exportEventsPage(search, before, limit);
      },
    };
    const server = await listen({ ...h.consoleDeps, store: counted });
    try {
      const cookie = await signInCookie(server);
      const csv = parseCsvAsShown(bytes(await binary(request(server).get('/console/exports/events.csv').set('Host', HOST).set('Cookie', cookie)).expect(200)).toString('utf8').slice(1));
      // Every event of the list (each order's payment and the ledger's own event for it), each once.
      const counts = await store.eventCounts();
      const total = counts.pending + counts.delivered + counts.dead;
      expect(total).toBeGreaterThanOrEqual(count);
      expect(csv).toHaveLength(1 + total);
      expect(new Set(csv.slice(1).map((row) => row[csv[0]!.indexOf('event id')])).size).toBe(total);
      expect(new Set(csv.slice(1).map((row) => row[csv[0]!.indexOf('shopOrderNo')])).size).toBe(count);
      // Reads of at most a page of notifications (a hundred: each may be 64 KB), each before the last row of the one before.
      expect(calls).toHaveLength(Math.floor(total / EVENT_EXPORT_PAGE_SIZE) + 1);
      expect(calls.every((c) => c.limit === EVENT_EXPORT_PAGE_SIZE)).toBe(true);
      expect(calls[0]!.before).toBeNull();
      for (let i = 2; i < calls.length; i += 1) expect(calls[i]!.before!).toBeLessThan(calls[i - 1]!.before!);
      // The page's filters narrow the file as they narrow the list.
      const one = parseCsvAsShown(bytes(await binary(request(server).get('/console/exports/events.csv?q=BULK-7&type=payment.approved').set('Host', HOST).set('Cookie', cookie)).expect(200)).toString('utf8').slice(1));
      expect(one.slice(1).map((row) => [row[one[0]!.indexOf('shopOrderNo')], row[one[0]!.indexOf('shopValue1')]])).toEqual([['BULK-7', "'=bulk 7"]]);
      // A client that reads the first bytes and goes: the second page (if asked for) waits until it has gone.
      calls.length = 0;
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      await new Promise<void>((resolve, reject) => {
        const req = get({ port: (server.address() as AddressInfo).port, path: '/console/exports/events.csv', headers: { Host: HOST, Cookie: cookie } }, (res) => {
          expect(res.statusCode).toBe(200);
          // Past the header line: into the first page's rows, before the end of the list.
          let received = 0;
          res.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received > 20_000 && !req.destroyed) {
              req.destroy();
              resolve();
            }
          });
        });
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      });
      // Once the server has seen the connection close, the second page (if it was asked for) may come.
      await eventually(() => new Promise<boolean>((resolve) => server.getConnections((_e, n) => resolve(n === 0))), 10_000, 'the connection closed');
      release();
      const row = await eventually(async () => (await store.searchAudit({ action: 'exported', limit: 1 })).rows.find((r) => r.subject === 'events.csv' && r.detail!.endsWith('disconnected')), 10_000, 'the audit row');
      // Midway: past the bytes the client read, short of the list (the second page never written).
      const written = Number(/^range … to …; filters none; (\d+) rows; client disconnected$/.exec(row.detail!)?.[1]);
      expect(written).toBeGreaterThan(20);
      expect(written).toBeLessThanOrEqual(EVENT_EXPORT_PAGE_SIZE);
      expect(calls.length).toBeLessThanOrEqual(2);

      // The store fails midway: the response is cut off (never a short file that looks whole) and the audit says so.
      calls.length = 0;
      hold = null;
      failSecond = true;
      const cut = await new Promise<string>((resolve) => {
        const req = get({ port: (server.address() as AddressInfo).port, path: '/console/exports/events.xlsx', headers: { Host: HOST, Cookie: cookie } }, (res) => {
          res.on('data', () => undefined);
          res.on('end', () => resolve('ended'));
          res.on('aborted', () => resolve('aborted'));
          res.on('error', () => resolve('aborted'));
        });
        req.on('error', () => resolve('aborted'));
      });
      expect(cut).toBe('aborted');
      const failed = await eventually(async () => (await store.searchAudit({ action: 'exported', limit: 1 })).rows.find((r) => r.subject === 'events.xlsx'), 10_000, 'the audit row');
      expect(failed.detail).toBe(`range … to …; filters none; ${EVENT_EXPORT_PAGE_SIZE} rows; failed`);
      expect(h.consoleLogs().some((line) => line.message === 'export failed')).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  /** The console over `deps` on a real port (a client that can go away midway). */
  async function listen(deps: ConsoleDeps): Promise<Server> {
    const admin = createAdminApp({
      store: deps.store,
      publisher: { kind: 'none', publish: async () => undefined, status: () => ({ connected: false, detail: '' }), close: async () => undefined },
      relay: null, metrics: createMetrics(), isShuttingDown: () => false, console: deps,
    });
    const server = createServer(admin);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server;
  }

  async function signInCookie(server: Server): Promise<string> {
    const token = await h.addOperator('park', 'operator');
    const answer = await request(server).post('/console/sign-in').set('Host', HOST).set('Origin', `http://${HOST}`).type('form').send({ token }).expect(303);
    return String(answer.headers['set-cookie']![0]).split(';')[0]!;
  }
}

describe('exports of the console lists, on SQLite', () => {
  exportsSuite(() => startLedgerConsole());
});

describePostgres('exports of the console lists, on PostgreSQL', () => {
  exportsSuite(async () => {
    const schema = await createTestSchema();
    const h = await startLedgerConsole({ databaseUrl: schema.url });
    return { ...h, close: async () => { await h.close(); await schema.drop(); } };
  });
});
