import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import { countCell, moneyCell, textCell, timeCell, type ExportCell } from '../../src/exports/export-cell';
import { identifierCell } from '../../src/exports/identifier-cell';
import { xlsxWriter } from '../../src/exports/xlsx-writer';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { HOST } from '../console/console-harness';
import { startLedgerConsole, type LedgerConsole } from '../console/ledger-console-harness';
import { convertWithSpreadsheet, hasSpreadsheetProgram } from './spreadsheet-program';
import { parseXlsx } from './xlsx-sheet';
import { binary } from './download';

const PG_CNO = '26112112583000000019';
/** Digit widths a text prints in: a Hangul syllable two. */
const displayed = (text: string) => [...text].reduce((n, ch) => n + (/[가-힣]/.test(ch) ? 2 : 1), 0);

async function load(file: Buffer): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ArrayBuffer);
  return book;
}

async function written(rows: ExportCell[][]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = xlsxWriter({ out, language: 'ko' });
  writer.beginList('주문', [{ text: '최종 변경', kind: 'time' }, { text: '미해결 불일치' }, { text: '결제 거래번호 (pgCno)' }, { text: '승인 금액', kind: 'money' }, { text: '메모' }, { text: '시뮬레이션' }]);
  for (const row of rows) writer.row(row);
  await writer.end();
  return Buffer.concat(chunks);
}

const row = (i: number, note = '짧은 메모'): ExportCell[] => [
  timeCell('2026-11-27T12:00:00Z'), countCell(0), identifierCell('pgCno', PG_CNO), moneyCell(123_456_789, 'KRW'), textCell('note', note), textCell('simulated', 'Y'),
].map((cell, column) => (column === 1 ? countCell(i) : cell));

describe('an .xlsx that reads and prints well', () => {
  test('columns fit their header and content (Korean counted double, bounded), headers wrap, rows past the measured ones all follow in order', async () => {
    const rows = Array.from({ length: 250 }, (_v, i) => row(i, i === 3 ? '가'.repeat(400) : '짧은 메모'));
    const book = await load(await written(rows));
    const sheet = book.worksheets[0]!;
    const width = (column: number) => sheet.getColumn(column).width!;
    // The time header with its zone, 19 characters of time, a 20-digit pgCno, an amount of nine digits with its separators and 원.
    expect(width(1)).toBeGreaterThanOrEqual(19 + 1);
    expect(width(3)).toBeGreaterThanOrEqual(PG_CNO.length + 1);
    expect(width(4)).toBeGreaterThanOrEqual('123,456,789원'.length + 2);
    // A header word is never cut: 시뮬레이션 is five syllables, ten digit widths, over a one-letter value.
    expect(width(6)).toBeGreaterThanOrEqual(10);
    expect(width(6)).toBeLessThan(20);
    // Padding between a count and the pgCno beside it, and a 400-syllable note does not take the page.
    expect(width(2)).toBeGreaterThan(String(249).length);
    // A number keeps a space from the text that starts right after its column (a count of 0 beside a pgCno).
    expect(sheet.getRow(2).getCell(2).alignment).toEqual({ horizontal: 'right', indent: 1 });
    expect(sheet.getRow(2).getCell(4).alignment).toEqual({ horizontal: 'right', indent: 1 });
    expect(width(5)).toBeLessThanOrEqual(60);
    expect(width(5)).toBeGreaterThan('짧은 메모'.length * 2);
    const header = sheet.getRow(1);
    expect(header.getCell(1).value).toBe('최종 변경 (KST, UTC+09:00)');
    expect(header.getCell(1).alignment).toMatchObject({ wrapText: true });
    // The time header is wider than its 19-character column: it takes a second line, and the row is tall enough for it.
    expect(width(1)).toBeLessThan(displayed('최종 변경 (KST, UTC+09:00)'));
    expect(header.height).toBeGreaterThanOrEqual(2 * 15);
    expect(sheet.rowCount).toBe(251);
    expect(Array.from({ length: 250 }, (_v, i) => sheet.getRow(i + 2).getCell(2).value)).toEqual(Array.from({ length: 250 }, (_v, i) => i));
    expect(sheet.getRow(251).getCell(3).value).toBe(PG_CNO);
  });

  test('every sheet prints landscape, one page wide, with the header row on each page', async () => {
    const book = await load(await written([row(1)]));
    const sheet = book.worksheets[0]!;
    expect(sheet.pageSetup).toMatchObject({ orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0, printTitlesRow: '1:1' });
  });
});

describe('the month\'s money as a file, made before the month ends', () => {
  let h: LedgerConsole;
  const MALL = 'T0005678';
  // 12:00 on 20 November in Korea.
  beforeEach(async () => {
    h = await startLedgerConsole({ now: () => new Date('2026-11-20T03:00:00Z') });
    const pay = async (order: string, amount: string, currency: string, at: string) => {
      await h.ledgerApp.api.put(`/v1/orders/${MALL}/${order}/expectation`, { amount: Number(amount), currency, method: 'card', expiresAt: null }).expect(200);
      await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo: order, amount, transactionDate: kstStamp(new Date(at)) })).expect(200);
    };
    await pay('ORD-W1', '12000', 'KRW', '2026-11-10T03:00:00Z');
    await pay('ORD-W2', '3000', 'KRW', '2026-11-19T03:00:00Z');
    await pay('ORD-D1', '1203', 'USD', '2026-11-12T03:00:00Z');
    // A payment stamped after the console's today: the store has it, the file of "so far" does not.
    await pay('ORD-LATER', '777', 'KRW', '2026-11-25T03:00:00Z');
    await h.ledgerApp.stores.ledger.caughtUp();
  });
  afterEach(async () => h.close());

  test('no day after today; days are Excel dates; each currency has a total line of its days; the file is named by the days it holds', async () => {
    const { agent } = await h.signIn('kim', 'operator');
    const res = await binary(agent.get('/console/exports/summary.xlsx?from=2026-11-01&to=2026-11-30').set('Host', HOST).set('Accept-Language', 'ko-KR')).expect(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="summary_2026-11-01_2026-11-20.xlsx"');
    const parsed = parseXlsx(res.body as Buffer);
    const [header, ...rows] = parsed.sheets[0]!;
    const at = (name: string) => header!.findIndex((c) => c?.value === name);
    const days = rows.filter((r) => r[0]!.type === 'number');
    const totals = rows.filter((r) => r[0]!.type === 'text');
    const serial = (day: string) => (Date.parse(`${day}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / 86_400_000;
    expect(days.every((r) => r[0]!.format === 'yyyy-mm-dd')).toBe(true);
    expect(days.map((r) => r[0]!.value)).toContain(serial('2026-11-19'));
    expect(days.map((r) => r[0]!.value as number).every((v) => v <= serial('2026-11-20'))).toBe(true);
    // The totals come after every day, one per currency, each the sum of its currency's days.
    expect(rows.slice(-totals.length)).toEqual(totals);
    expect(totals.map((r) => [r[0]!.value, r[at('통화')]!.value])).toEqual([['합계', 'KRW'], ['합계', 'USD']]);
    for (const total of totals) {
      const currency = total[at('통화')]!.value;
      const own = days.filter((r) => r[at('통화')]!.value === currency);
      for (const column of ['결제 승인 건수', '결제 승인 금액', '순액']) {
        expect(total[at(column)]!.value).toBeCloseTo(own.reduce((sum, r) => sum + Number(r[at(column)]!.value), 0), 6);
      }
    }
    expect(totals[0]![at('결제 승인 금액')]).toMatchObject({ type: 'number', value: 15000 });
    expect(totals[1]![at('결제 승인 금액')]).toMatchObject({ type: 'number', value: 12.03, format: '"$"#,##0.00' });
    // The CSV holds the same days and totals; a month wholly after today holds none.
    const csv = (await binary(agent.get('/console/exports/summary.csv?from=2026-11-01&to=2026-11-30').set('Host', HOST).set('Accept-Language', 'en')).expect(200)).body as Buffer;
    const lines = csv.toString('utf8').trim().split('\r\n');
    expect(lines.filter((line) => line.startsWith('2026-11-2'))).toEqual(lines.filter((line) => line.startsWith('2026-11-20')));
    expect(lines.slice(-2).map((line) => line.split(',')[0])).toEqual(['total', 'total']);
    const december = (await binary(agent.get('/console/exports/summary.csv?from=2026-12-01&to=2026-12-31').set('Host', HOST)).expect(200)).body as Buffer;
    expect(december.toString('utf8').trim().split('\r\n')).toHaveLength(1);
  });

  (hasSpreadsheetProgram ? test : test.skip)('a month\'s summary prints on one landscape page wide, as LibreOffice lays it out', async () => {
    const { agent } = await h.signIn('kim', 'operator');
    const xlsx = (await binary(agent.get('/console/exports/summary.xlsx?from=2026-11-19&to=2026-11-20').set('Host', HOST)).expect(200)).body as Buffer;
    const pdf = (await convertWithSpreadsheet(xlsx, 'xlsx', 'pdf')).toString('latin1');
    expect(pdf.match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);
    const box = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf)!;
    expect(Number(box[1])).toBeGreaterThan(Number(box[2]));
  }, 60_000);
});
