import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import type request from 'supertest';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { HOST } from '../console/console-harness';
import { startLedgerConsole, type LedgerConsole } from '../console/ledger-console-harness';
import { eventually } from '../helpers/eventually';
import { parseCsv, parseXlsx } from './xlsx-sheet';
import { CSV_IMPORT, convertWithSpreadsheet, hasSpreadsheetProgram } from './spreadsheet-program';
import { binary } from './download';

const MALL = '00012345';
/** Two wallet payments whose numbers differ only past the 15 digits a spreadsheet number keeps. */
const PG_CNOS = ['26112112583000000019', '26112112583000000027'];
const APPROVAL = '00123456';
/** An order number a spreadsheet reads as 27 November, another as the number 12. */
const ORDER_NOS = ['11-27', '0012'];
const WORD_JOINER = '\u2060';

/** A cell's text, whether one run or several (LibreOffice splits Korean and Latin into font runs). */
const text = (cell: ExcelJS.Cell) => (typeof cell.value === 'object' && cell.value !== null && 'richText' in cell.value
  ? cell.value.richText.map((run) => run.text).join('') : String(cell.value));

/** Each sheet's cells as exceljs reads them: the header's names to the cells of each row. */
async function readBook(file: Buffer): Promise<Array<Array<Record<string, ExcelJS.Cell>>>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ArrayBuffer);
  return book.worksheets.map((sheet) => {
    const names = Array.from({ length: sheet.getRow(1).cellCount }, (_v, i) => text(sheet.getRow(1).getCell(i + 1)));
    const rows: Array<Record<string, ExcelJS.Cell>> = [];
    for (let r = 2; r <= sheet.rowCount; r += 1) rows.push(Object.fromEntries(names.map((name, i) => [name, sheet.getRow(r).getCell(i + 1)])));
    return rows;
  });
}

describe('identifiers stay text in every export format', () => {
  let h: LedgerConsole;
  let agent: request.Agent;
  beforeEach(async () => {
    h = await startLedgerConsole();
    for (const [i, pgCno] of PG_CNOS.entries()) {
      await h.ledgerApp.notify(approvalNotification({
        mallId: MALL, shopOrderNo: ORDER_NOS[i]!, pgCno, approvalNo: APPROVAL, amount: '5000', transactionDate: kstStamp(new Date()),
        shopValue1: '똠방각하 뷁 😀', issuerName: '비씨카드',
      })).expect(200);
    }
    await h.ledgerApp.stores.ledger.caughtUp();
    agent = (await h.signIn('kim', 'operator')).agent;
  });
  afterEach(async () => h.close());

  const download = async (path: string, language = 'ko-KR') => (await binary(agent.get(path).set('Host', HOST).set('Accept-Language', language)).expect(200)).body as Buffer;
  const approvals = <T extends { [k: string]: unknown }>(rows: T[], typeColumn: string) => rows.filter((row) => String((row[typeColumn] as { value?: unknown })?.value ?? row[typeColumn]).includes('approved'));

  test('.xlsx: pgCno, approval number, order number, mall and event ids are text cells with the text format, each digit kept', async () => {
    const [events] = await readBook(await download('/console/exports/events.xlsx', 'en'));
    const paid = approvals(events!, 'type');
    expect(paid.map((row) => row.pgCno!.value).sort()).toEqual(PG_CNOS);
    for (const row of paid) {
      for (const column of ['pgCno', 'approvalNo', 'shopOrderNo', 'mallId', 'event id', 'payMethodTypeCode', 'installmentMonth', 'result code']) {
        expect([column, row[column]!.type, row[column]!.numFmt]).toEqual([column, ExcelJS.ValueType.String, '@']);
      }
      expect(row.approvalNo!.value).toBe(APPROVAL);
      expect(row.mallId!.value).toBe(MALL);
      expect(row.installmentMonth!.value).toBe('00');
    }
    expect(paid.map((row) => row.shopOrderNo!.value).sort()).toEqual([...ORDER_NOS].sort());
    // An amount is still a number, and no identifier cell is: the writer's own XML says so.
    expect(paid[0]!.amount!.type).toBe(ExcelJS.ValueType.Number);
    const orders = parseXlsx(await download('/console/exports/orders.xlsx', 'en'));
    const [header, ...rows] = orders.sheets[0]!;
    const column = (name: string) => header!.findIndex((c) => c?.value === name);
    expect(rows.map((row) => row[column('payments (pgCno)')]).sort((a, b) => String(a!.value).localeCompare(String(b!.value))))
      .toEqual(PG_CNOS.map((value) => ({ type: 'text', value, format: '@' })));
  });

  test('CSV in UTF-8: each identifier is quoted behind an invisible word joiner; nothing else is marked', async () => {
    const [header, ...rows] = parseCsv((await download('/console/exports/events.csv', 'en')).toString('utf8').slice(1));
    const at = (name: string) => header!.indexOf(name);
    const paid = rows.filter((row) => row[at('type')] === 'payment.approved');
    expect(paid.map((row) => row[at('pgCno')]).sort()).toEqual(PG_CNOS.map((id) => WORD_JOINER + id));
    for (const row of paid) {
      expect(row[at('approvalNo')]).toBe(WORD_JOINER + APPROVAL);
      expect(row[at('amount')]).toBe('5000');
      expect(row[at('issuerName')]).toBe('비씨카드');
      expect(row[at('received (KST, UTC+09:00)')]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    }
  });

  (hasSpreadsheetProgram ? test : test.skip)('CSV in UTF-8 opened by LibreOffice: every identifier is text holding every digit, the two wallet payments apart, amounts still numbers', async () => {
    const converted = await readBook(await convertWithSpreadsheet(await download('/console/exports/events.csv', 'en'), 'csv', 'xlsx', CSV_IMPORT.utf8));
    const paid = approvals(converted[0]!, 'type');
    expect(paid).toHaveLength(2);
    const shown = (cell: ExcelJS.Cell) => [cell.type, String(cell.value).replace(WORD_JOINER, '')];
    expect(paid.map((row) => shown(row.pgCno!)).sort()).toEqual(PG_CNOS.map((id) => [ExcelJS.ValueType.String, id]));
    expect(paid.map((row) => shown(row.shopOrderNo!)).sort()).toEqual([...ORDER_NOS].sort().map((id) => [ExcelJS.ValueType.String, id]));
    for (const row of paid) {
      expect(shown(row.approvalNo!)).toEqual([ExcelJS.ValueType.String, APPROVAL]);
      expect(shown(row.mallId!)).toEqual([ExcelJS.ValueType.String, MALL]);
      expect(shown(row.installmentMonth!)).toEqual([ExcelJS.ValueType.String, '00']);
      expect([row.amount!.type, row.amount!.value]).toEqual([ExcelJS.ValueType.Number, 5000]);
      expect(row.formula).toBeUndefined();
    }
    expect(converted[0]!.flatMap((row) => Object.values(row)).filter((cell) => cell.type === ExcelJS.ValueType.Formula)).toEqual([]);
  }, 60_000);

  test('CSV in CP949 (encoding=cp949): no BOM, Korean text in the code page, a character it cannot hold written as its code point, identifiers behind a tab', async () => {
    const file = await download('/console/exports/events.csv?encoding=cp949');
    expect(file.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    expect(iconv.encode('거래번호 (pgCno)', 'cp949').length).toBeGreaterThan(0);
    expect(file.includes(iconv.encode('거래번호 (pgCno)', 'cp949'))).toBe(true);
    const [header, ...rows] = parseCsv(iconv.decode(file, 'cp949'));
    const at = (name: string) => header!.indexOf(name);
    const paid = rows.filter((row) => row[at('유형')] === 'payment.approved');
    expect(paid.map((row) => row[at('거래번호 (pgCno)')]).sort()).toEqual(PG_CNOS.map((id) => `\t${id}`));
    for (const row of paid) {
      expect(row[at('승인번호')]).toBe(`\t${APPROVAL}`);
      expect(row[at('발급사')]).toBe('비씨카드');
      expect(row[at('shopValue1')]).toBe('똠방각하 뷁 [U+1F600]');
    }
    // The UTF-8 file, asked for by name, is the one without the parameter.
    expect((await download('/console/exports/events.csv?encoding=utf-8')).equals(await download('/console/exports/events.csv'))).toBe(true);
  });

  (hasSpreadsheetProgram ? test : test.skip)('CSV in CP949 opened by LibreOffice with the Korean code page: Korean text intact, identifiers text with every digit', async () => {
    const converted = await readBook(await convertWithSpreadsheet(await download('/console/exports/events.csv?encoding=cp949'), 'csv', 'xlsx', CSV_IMPORT.cp949));
    const rows = converted[0]!;
    expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(['수신 (KST, UTC+09:00)', '거래번호 (pgCno)', '승인번호', '발급사']));
    const paid = rows.filter((row) => text(row['유형']!) === 'payment.approved');
    expect(paid).toHaveLength(2);
    expect(paid.map((row) => text(row['거래번호 (pgCno)']!).trim()).sort()).toEqual(PG_CNOS);
    for (const row of paid) {
      expect(row['거래번호 (pgCno)']!.type === ExcelJS.ValueType.String || row['거래번호 (pgCno)']!.type === ExcelJS.ValueType.RichText).toBe(true);
      expect(text(row['승인번호']!).trim()).toBe(APPROVAL);
      expect(text(row['발급사']!)).toBe('비씨카드');
      expect(text(row.shopValue1!)).toBe('똠방각하 뷁 [U+1F600]');
      expect(text(row['전달 상태']!)).toMatch(/[가-힣]/);
    }
  }, 60_000);
});

describe('the download row offers the Korean code page', () => {
  let h: LedgerConsole;
  beforeEach(async () => {
    h = await startLedgerConsole();
  });
  afterEach(async () => h.close());

  test('each list\'s row has a CP949 CSV button in Korean and in English, and says which file to take; a CP949 download is audited as such', async () => {
    const { agent } = await h.signIn('kim', 'operator');
    for (const [language, button, hint] of [
      ['ko-KR', 'CSV 내려받기 (한국어 엑셀용 CP949)', '가져오기 창에서 문자 집합을 유니코드(UTF-8)로 고르세요'],
      ['en', 'CSV for Korean Excel (CP949)', 'choose Unicode (UTF-8) as the character set in the import dialog'],
    ] as const) {
      for (const page of ['orders', 'events', 'discrepancies', 'summary']) {
        const html = (await agent.get(`/console/${page}`).set('Host', HOST).set('Accept-Language', language).expect(200)).text;
        const list = page;
        expect(html).toContain(`<button type="submit" formaction="/console/exports/${list}.csv" name="encoding" value="cp949">${button}</button>`);
        expect(html).toContain(hint);
      }
    }
    await binary(agent.get('/console/exports/orders.csv?encoding=cp949').set('Host', HOST)).expect(200);
    // The audit row is written once the last byte has left: the client may see its file a moment before.
    const rows = await eventually(async () => {
      const found = (await h.consoleDeps.store.searchAudit({ action: 'exported', limit: 5 })).rows;
      return found.length > 0 && found;
    }, 10_000, 'the audit row');
    expect(rows.map((row) => [row.subject, row.detail])).toEqual([['orders.csv', 'range … to …; filters encoding=cp949; 0 rows; complete']]);
  });
});
