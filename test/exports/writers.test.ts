import { PassThrough } from 'node:stream';
import { csvWriter } from '../../src/exports/csv-writer';
import { EMPTY, jsonCell, moneyCell, textCell, timeCell, countCell, type ExportCell } from '../../src/exports/export-cell';
import { neutraliseText } from '../../src/exports/neutralise';
import type { TableWriter, WriterOptions } from '../../src/exports/table-writer';
import { xlsxWriter } from '../../src/exports/xlsx-writer';
import { parseCsv, parseXlsx } from './xlsx-sheet';

async function written(make: (options: WriterOptions) => TableWriter, language: 'ko' | 'en', rows: ExportCell[][]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = make({ out, language });
  writer.beginList('Sheet', [{ text: 'what' }, { text: 'amount', kind: 'money' }, { text: 'at', kind: 'time' }, { text: 'n' }]);
  for (const row of rows) writer.row(row);
  await writer.end();
  return Buffer.concat(chunks);
}

describe('the cells of an export', () => {
  test('text that a spreadsheet would run as a formula gets a quote in front; other text is kept as it is', () => {
    for (const probe of ['=1+1', '+1', '-1+2', '@SUM(A1)', '\tX', '\r=1', '=HYPERLINK("http://x","y")']) expect(neutraliseText(probe)).toBe(`'${probe}`);
    for (const plain of ['ORD-1', '12000', '홍**', " '=1", '1-2', 'a=b']) expect(neutraliseText(plain)).toBe(plain);
  });

  test('a card number, a name and a phone are masked by the field and wherever they stand, before the neutralising', () => {
    expect(textCell('cardNo', '5361481234561234')).toEqual({ kind: 'text', text: expect.stringMatching(/^\*+1234$/) });
    expect(textCell('customerName', '=홍길동')).toEqual({ kind: 'text', text: "'=**" + '*' });
    expect(textCell('shopValue1', 'card 4111-1111-1111-1111')).toEqual({ kind: 'text', text: 'card 4111-11**-****-1111' });
    const json = jsonCell({ customerContactNo: '01012345678', shopValue2: '=1+1' });
    expect(json.kind === 'text' && json.text).not.toContain('01012345678');
    expect(textCell('note', '')).toBe(EMPTY);
  });
});

describe('the writers', () => {
  const rows: ExportCell[][] = [
    [textCell('what', '=cmd'), moneyCell(-3000, 'USD'), timeCell('2026-11-27T15:04:05.000Z'), countCell(3)],
    [textCell('what', 'a "quoted", multi\r\nline'), moneyCell(12000, 'KRW'), timeCell(null), EMPTY],
    [textCell('what', 'ctrl\u0001char'), moneyCell(1203, 'USD'), EMPTY, countCell(0)],
  ];

  test('CSV: a BOM, CRLF, RFC 4180 quoting, amounts as bare numbers in the major unit (a refund stays a negative number), times in KST', async () => {
    const file = (await written(csvWriter, 'en', rows)).toString('utf8');
    expect(file.startsWith('\uFEFF')).toBe(true);
    expect(parseCsv(file.slice(1))).toEqual([
      ['what', 'amount', 'at (KST, UTC+09:00)', 'n'],
      ["'=cmd", '-30.00', '2026-11-28 00:04:05', '3'],
      ['a "quoted", multi\r\nline', '12000', '', ''],
      ['ctrl\u0001char', '12.03', '', '0'],
    ]);
  });

  test('.xlsx: amounts as numbers with the currency format (won in Korean), times as dates in KST, text as text, no formula and no shared strings', async () => {
    const book = parseXlsx(await written(xlsxWriter, 'ko', rows));
    expect(book.sheetNames).toEqual(['Sheet']);
    const [header, first, second, third] = book.sheets[0]!;
    expect(header!.map((c) => c?.value)).toEqual(['what', 'amount', 'at (KST, UTC+09:00)', 'n']);
    expect(first![0]).toEqual({ type: 'text', value: "'=cmd", format: 'General' });
    expect(first![1]).toEqual({ type: 'number', value: -30, format: '"$"#,##0.00' });
    // 2026-11-28 00:04:05 in Korea as an Excel serial day (days since 1899-12-30).
    expect(first![2]!.value).toBeCloseTo((Date.UTC(2026, 10, 28, 0, 4, 5) - Date.UTC(1899, 11, 30)) / 86_400_000, 8);
    expect(first![2]!.format).toBe('yyyy-mm-dd hh:mm:ss');
    expect(first![3]).toEqual({ type: 'number', value: 3, format: 'General' });
    expect(second![0]!.value).toBe('a "quoted", multi\r\nline');
    expect(second![1]).toEqual({ type: 'number', value: 12000, format: '#,##0"원"' });
    expect(third![0]!.value).toBe('ctrl\uFFFDchar');
    expect(third![1]).toEqual({ type: 'number', value: 12.03, format: '"$"#,##0.00' });
    expect(book.sheetXml.join('')).not.toMatch(/<f[ >]/);
    const english = parseXlsx(await written(xlsxWriter, 'en', rows));
    expect(english.sheets[0]![2]![1]!.format).toBe('"₩"#,##0');
  });
});
