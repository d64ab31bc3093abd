import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { createAdminApp } from '../../src/admin/admin-app';
import { createMetrics } from '../../src/observability/metrics';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { kstStamp } from '../../src/notifications/kst-date';
import type { BookedTransaction } from '../../src/sandbox/gateway-books';
import { portalFile } from '../../src/sandbox/portal-files';
import { transactionList } from '../../src/sandbox/portal-lists';
import { HOST, ORIGIN, csrfIn } from './console-harness';
import { startLedgerConsole, type LedgerConsole } from './ledger-console-harness';

const MALL = 'T0001234';
const DAY = '2026-11-20';
const at = (hour: number): string => new Date(Date.UTC(2026, 10, 20, hour - 9)).toISOString();

const booked = (pgCno: string, shopOrderNo: string, amount: number, hour: number): BookedTransaction => ({
  kind: 'payment', mallId: MALL, pgCno, cancelPgCno: null, shopOrderNo, approvalNo: '30001234', amount, remainingAfter: null, method: '신용카드', at: at(hour),
});

const dayList = () => transactionList([booked('PG-A', 'ORD-A', 15_000, 9), booked('PG-B', 'ORD-B', 8_000, 10)]);

/** A list whose headers no Korean portal uses (an ERP's own export), with markup and a formula start in its cells: they are data. */
const otherHeaders = (): Buffer => Buffer.from([
  'Ref No,<script>alert(1)</script>,Paid,When,State',
  'PG-A,"=HYPERLINK(""http://evil.example"",""x"")",15000,2026-11-20 09:00:00,승인',
  'PG-B,ORD-B,8000,2026-11-20 10:00:00,승인',
].join('\r\n'), 'utf8');

const upload = (agent: request.Agent, csrf: string, bytes: Buffer, fileName: string, kind = 'detect') =>
  agent.post('/console/reconcile/upload').set('Host', HOST).set('Origin', ORIGIN)
    .field('_csrf', csrf).field('mall', MALL).field('kind', kind).attach('file', bytes, fileName);

const form = (agent: request.Agent, path: string, fields: Record<string, string>) =>
  agent.post(path).set('Host', HOST).set('Origin', ORIGIN).type('form').send(fields);

async function korean(agent: request.Agent, csrf: string): Promise<void> {
  await form(agent, '/console/locale', { _csrf: csrf, locale: 'ko', back: '/console' }).expect(303);
}

describe('Reconcile → Upload: the portal\'s file previewed before anything is stored, mapped per mall, imported', () => {
  let app: LedgerConsole;
  /** The console's clock: a test may move it past a staged file's hour. */
  let later = 0;
  beforeEach(async () => {
    later = 0;
    app = await startLedgerConsole({ now: () => new Date(Date.now() + later), env: { RECONCILE_MAX_FILE_BYTES: '65536' } });
  });
  afterEach(() => app.close());

  test('the sandbox portal\'s .xlsx: its preview in Korean as money and KST, then Import lands on the day with a notice, audited', async () => {
    await app.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-A', pgCno: 'PG-A', amount: '15000', transactionDate: kstStamp(new Date(at(9))) })).expect(200);
    const { agent, csrf } = await app.signIn('kim', 'operator');
    await korean(agent, csrf);
    const bytes = await portalFile(dayList(), { mallId: MALL, from: DAY, to: DAY }, 'xlsx');
    const staged = await upload(agent, csrf, bytes, 'transactions_20261120.xlsx').expect(303);
    expect(staged.headers.location!).toMatch(/^\/console\/reconcile\/uploads\/upl_[\w-]{24}$/);
    // Staged only: no import exists until the operator confirms.
    expect(await app.ledgerApp.stores.reconciliation.listImports({ day: DAY, mallId: MALL, limit: 10 })).toEqual([]);

    const preview = (await agent.get(staged.headers.location!).set('Host', HOST).expect(200)).text;
    expect(preview).toContain('기본 머리글 이름');
    expect(preview).toContain('거래내역');
    expect(preview).toMatch(/<option value="PG거래번호" selected>/);
    expect(preview).toContain('15,000원');
    expect(preview).toContain('8,000원');
    expect(preview).toMatch(/09:00:00 KST/);
    expect(preview).toContain('건너뛴 행');
    expect(preview).toContain('가져오기');

    const imported = await form(agent, `${staged.headers.location!}/import`, { _csrf: csrf, ...hiddenFields(preview) }).expect(303);
    const location = new URL(imported.headers.location!, ORIGIN);
    expect(location.pathname).toBe('/console/reconcile');
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ day: DAY, mall: MALL, n: '2', days: '1' });
    expect(location.searchParams.get('done')).toMatch(/^list-imported/);
    const day = (await agent.get(imported.headers.location!).set('Host', HOST).expect(200)).text;
    expect(day).toMatch(/게이트웨이 목록을 가져왔습니다: 1일에 걸친 2건/);

    const [stored] = await app.ledgerApp.stores.reconciliation.listImports({ day: DAY, mallId: MALL, limit: 10 });
    expect(stored).toMatchObject({ fileName: 'transactions_20261120.xlsx', rowCount: 2 });
    expect(stored!.importedBy).toMatch(/^kim \(/);
    const audit = await app.ledgerApp.stores.store.listAudit(20, 0);
    const row = audit.find((entry) => entry.action === 'uploaded gateway list');
    expect(row?.subject).toBe('transactions_20261120.xlsx');
    expect(row?.detail).toMatch(/T0001234 transactions list .*: 2 rows, 2026-11-20\.\.2026-11-20/);
    // Imported: the staged copy is gone, and the preview with it.
    await agent.get(staged.headers.location!).set('Host', HOST).expect(404);
  });

  test('the portal\'s CP949 CSV reads the same, in English with won as money', async () => {
    const { agent, csrf } = await app.signIn('kim', 'operator');
    const bytes = await portalFile(dayList(), { mallId: MALL, from: DAY, to: DAY }, 'csv');
    expect(bytes.includes(Buffer.from('PG거래번호', 'utf8'))).toBe(false);
    const staged = await upload(agent, csrf, bytes, 'transactions.csv', 'transactions').expect(303);
    const preview = (await agent.get(staged.headers.location!).set('Host', HOST).expect(200)).text;
    expect(preview).toContain('the built-in header names');
    expect(preview).toContain('₩15,000');
    expect(preview).toContain('PG-B');
    expect(preview).toContain('>Import</button>');
  });

  test('other headers: the mapping screen reads them, saves them for the mall, and the next upload is read with them; markup in a header is text', async () => {
    const { agent, csrf } = await app.signIn('kim', 'operator');
    const staged = await upload(agent, csrf, otherHeaders(), 'erp.csv').expect(303);
    const first = (await agent.get(staged.headers.location!).set('Host', HOST).expect(200)).text;
    expect(first).toContain('no column for: Transaction number, Amount, Time');
    expect(first).not.toContain('>Import</button>');
    expect(first).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(first).not.toContain('<script>alert(1)');

    const mapping = { 'map.pgCno': 'Ref No', 'map.shopOrderNo': '<script>alert(1)</script>', 'map.amount': 'Paid', 'map.at': 'When', 'map.status': 'State' };
    const again = (await form(agent, `${staged.headers.location!}/preview`, { _csrf: csrf, ...mapping }).expect(200)).text;
    expect(again).toContain('the columns chosen below (not saved yet)');
    expect(again).toContain('₩15,000');
    // The formula start is shown as the characters it is, never as a link or markup.
    expect(again).toContain('=HYPERLINK(&quot;http://evil.example&quot;,&quot;x&quot;)');
    expect(again).toContain('>Import</button>');

    const saved = await form(agent, `${staged.headers.location!}/mapping`, { _csrf: csrf, ...mapping }).expect(303);
    expect((await agent.get(saved.headers.location!).set('Host', HOST).expect(200)).text).toContain('The mapping is saved');
    const [kept] = await app.ledgerApp.stores.reconciliation.mappingsOf(MALL);
    expect(kept).toMatchObject({ kind: 'transactions', savedBy: 'kim', mapping: { pgCno: 'Ref No', amount: 'Paid', at: 'When' } });
    const audit = await app.ledgerApp.stores.store.listAudit(20, 0);
    expect(audit.find((entry) => entry.action === 'saved column mapping')?.subject).toBe(`${MALL} transactions`);

    const next = await upload(agent, csrf, otherHeaders(), 'erp-next.csv').expect(303);
    const read = (await agent.get(next.headers.location!).set('Host', HOST).expect(200)).text;
    expect(read).toContain('the mapping saved for this mall');
    expect(read).toContain('₩8,000');
  });

  test('refused files: a formula, an encoding neither UTF-8 nor CP949, a body larger than the limit by its Content-Length', async () => {
    const { agent, csrf } = await app.signIn('kim', 'operator');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('거래내역');
    sheet.addRow(['PG거래번호', '주문번호', '거래금액', '거래일시']);
    sheet.addRow(['PG-A', 'ORD-A', 15000, '2026-11-20 09:00:00']);
    sheet.getCell('C3').value = { formula: 'C2*2', result: 30000 };
    sheet.getCell('A3').value = 'PG-C';
    sheet.getCell('D3').value = '2026-11-20 11:00:00';
    const edited = Buffer.from(await workbook.xlsx.writeBuffer());
    const formula = (await agent.get((await upload(agent, csrf, edited, 'edited.xlsx').expect(303)).headers.location!).set('Host', HOST).expect(200)).text;
    expect(formula).toContain('the cell holds a formula');
    expect(formula).toMatch(/<td><bdi>C3<\/bdi><\/td>/);
    expect(formula).not.toContain('>Import</button>');

    const garbled = Buffer.concat([Buffer.from('PG거래번호,거래금액,거래일시\r\n', 'utf8'), Buffer.from([0xff, 0xfe, 0xfd, 0x80, 0x2c, 0x31, 0x0d, 0x0a])]);
    const encoding = (await agent.get((await upload(agent, csrf, garbled, 'garbled.csv').expect(303)).headers.location!).set('Host', HOST).expect(200)).text;
    expect(encoding).toContain('neither UTF-8 nor CP949');

    // Declared larger than the limit: answered before a byte of the body is sent.
    const server = http.createServer(app.admin);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path: '/console/reconcile/upload', method: 'POST', headers: {
          Host: HOST, Origin: ORIGIN, 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(1024 * 1024 * 1024),
        } }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => { body += chunk.toString('utf8'); });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.flushHeaders();
      });
      expect(answer.status).toBe(413);
      expect(answer.body).toContain('1,073,741,824 bytes');
      expect(answer.body).toContain('65,536 bytes');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a viewer is refused the form and the upload; another operator cannot open someone\'s staged file', async () => {
    const viewer = await app.signIn('park', 'viewer');
    await viewer.agent.get('/console/reconcile/upload').set('Host', HOST).expect(403);
    await upload(viewer.agent, viewer.csrf, otherHeaders(), 'erp.csv').expect(403);
    const kim = await app.signIn('kim', 'operator');
    const staged = await upload(kim.agent, kim.csrf, otherHeaders(), 'erp.csv').expect(303);
    const lee = await app.signIn('lee', 'operator');
    await lee.agent.get(staged.headers.location!).set('Host', HOST).expect(404);
    // A form without its CSRF token is refused like every console form.
    await kim.agent.post('/console/reconcile/upload').set('Host', HOST).set('Origin', ORIGIN).field('mall', MALL).attach('file', otherHeaders(), 'erp.csv').expect(403);
  });

  test('a staged file is gone an hour after it arrived: not found, then deleted by the next upload and by the hourly prune', async () => {
    const { agent, csrf } = await app.signIn('kim', 'operator');
    const first = (await upload(agent, csrf, otherHeaders(), 'erp.csv').expect(303)).headers.location!;
    const id = first.split('/').pop()!;
    const stagedAt = new Date().toISOString();
    later = 61 * 60 * 1000;
    // Sessions idle out after 30 minutes: sign in again at the later time.
    const again = await app.signIn('lee', 'operator');
    await again.agent.get(first).set('Host', HOST).expect(404);
    // Still in the table (found at the hour it was staged), until an upload or the prune deletes it.
    expect(await app.ledgerApp.stores.reconciliation.findUpload(id, stagedAt)).not.toBeNull();
    await upload(again.agent, again.csrf, otherHeaders(), 'erp.csv').expect(303);
    expect(await app.ledgerApp.stores.reconciliation.findUpload(id, stagedAt)).toBeNull();
    const second = (await upload(again.agent, again.csrf, otherHeaders(), 'erp.csv').expect(303)).headers.location!.split('/').pop()!;
    const inTwoHours = new Date(Date.now() + 2 * 61 * 60 * 1000).toISOString();
    expect(await app.ledgerApp.stores.reconciliation.pruneUploads(inTwoHours)).toBe(2);
    expect(await app.ledgerApp.stores.reconciliation.findUpload(second, new Date(Date.now() + later).toISOString())).toBeNull();
  });

  test('a second console over the same database finds the staged upload and imports it', async () => {
    const token = await app.addOperator('kim', 'operator');
    const agent = request.agent(app.admin);
    const signedIn = await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token }).expect(303);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    const csrf = csrfIn((await agent.get('/console/reconcile/upload').set('Host', HOST).expect(200)).text);
    const staged = await upload(agent, csrf, await portalFile(dayList(), { mallId: MALL, from: DAY, to: DAY }, 'xlsx'), 'list.xlsx').expect(303);
    const other = createAdminApp({
      store: app.ledgerApp.stores.store,
      publisher: { kind: 'none', publish: async () => undefined, status: () => ({ connected: false, detail: 'test' }), close: async () => undefined },
      relay: null, metrics: createMetrics(), isShuttingDown: () => false,
      console: { ...app.consoleDeps },
    });
    const preview = await request(other).get(staged.headers.location!).set('Host', HOST).set('Cookie', cookie).expect(200);
    expect(preview.text).toContain('PG-A');
    const imported = await request(other).post(`${staged.headers.location!}/import`).set('Host', HOST).set('Origin', ORIGIN).set('Cookie', cookie)
      .type('form').send({ _csrf: csrf, ...hiddenFields(preview.text) }).expect(303);
    expect(imported.headers.location!).toContain(`day=${DAY}`);
  });
});

describe('a large upload is read on the reader\'s thread', () => {
  let app: LedgerConsole;
  beforeEach(async () => {
    app = await startLedgerConsole({ env: { RECONCILE_MAX_FILE_BYTES: String(8 * 1024 * 1024) } });
  });
  afterEach(() => app.close());

  test('a 20,000-row workbook is previewed and counted whole through the reader thread', async () => {
    const entries = Array.from({ length: 20_000 }, (_, i) => booked(`PG${String(i).padStart(12, '0')}`, `ORD-${i}`, 1_000 + i, 9 + (i % 12)));
    const bytes = await portalFile(transactionList(entries), { mallId: MALL, from: DAY, to: DAY }, 'xlsx');
    const { agent, csrf } = await app.signIn('kim', 'operator');
    const location = (await upload(agent, csrf, bytes, 'month.xlsx').expect(303)).headers.location!;
    const preview = (await agent.get(location).set('Host', HOST).expect(200)).text;
    expect(preview).toMatch(/<td data-rows>20,000</);
    expect(preview).toContain('PG000000000009');
    expect(preview).not.toContain('PG000000000010');
  }, 120_000);
});

/** The Import form's hidden fields, as the browser would send them. */
function hiddenFields(page: string): Record<string, string> {
  const formHtml = /<form method="post" action="[^"]+\/import"[\s\S]*?<\/form>/.exec(page)?.[0] ?? '';
  const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'").replace(/&#96;/g, '`').replace(/&amp;/g, '&');
  return Object.fromEntries([...formHtml.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].filter((m) => m[1] !== '_csrf').map((m) => [m[1]!, unescape(m[2]!)]));
}
