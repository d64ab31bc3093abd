import iconv from 'iconv-lite';
import { readGatewayList } from '../../../src/reconciliation/file/read-gateway-list';
import { excelWallClock, LIMITS, utf8Csv, workbookFile } from './list-files';

const HEADER = ['PG거래번호', '주문번호', '거래금액', '거래일시', '상태'];
const row = (pgCno: string, amount: string | number = '1,000', at = '2026-11-30 10:00:00'): string[] => [pgCno, `O-${pgCno}`, String(amount), at, '승인'];

async function problemsOf(bytes: Buffer, fileName = 'list.csv', limits = LIMITS) {
  const result = await readGatewayList(bytes, fileName, limits);
  if (result.ok) throw new Error('the file was read');
  return result.problems.map(({ code, line, column }) => ({ code, line, column }));
}

describe('a file that cannot be read whole is refused with every reason', () => {
  test('a file over the size limit is refused before it is parsed', async () => {
    const notEvenAWorkbook = Buffer.alloc(2_000, 0xff);
    expect(await problemsOf(notEvenAWorkbook, 'big.xlsx', { maxBytes: 1_000, maxRows: 10 })).toEqual([{ code: 'too_large', line: null, column: null }]);
  });

  test.each([
    ['a CSV', 'list.csv', () => Promise.resolve(utf8Csv([HEADER, row('A'), row('B'), row('C')], false))],
    ['a workbook', 'list.xlsx', () => workbookFile({ rows: [HEADER, row('A'), row('B'), row('C')] })],
  ])('%s with more rows than allowed is refused', async (_name, fileName, file) => {
    expect(await problemsOf(await file(), fileName, { maxBytes: 1_000_000, maxRows: 3 })).toEqual([{ code: 'too_many_rows', line: null, column: null }]);
  });

  test.each([
    ['UTF-16 text', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(`${HEADER.join(',')}\r\n`, 'utf16le')])],
    ['bytes CP949 has no character for', Buffer.from([0x50, 0x47, 0x2c, 0xc9, 0x20, 0xff, 0xff, 0x0d, 0x0a])],
  ])('%s is neither UTF-8 nor CP949', async (_name, bytes) => {
    expect(await problemsOf(bytes)).toEqual([{ code: 'encoding', line: null, column: null }]);
  });

  test('a header without the key columns names the ones missing', async () => {
    const result = await readGatewayList(utf8Csv([['주문번호', '상태'], ['O-1', '승인']], false), 'list.csv', LIMITS);
    expect(!result.ok && result.problems).toEqual([
      { code: 'missing_column', line: 1, column: null, message: expect.stringMatching(/pgCno \(.*pg거래번호.*amount \(.*at \(.*거래일자/) },
    ]);
  });

  test('empty key cells, unreadable amounts and times are each refused with their line and column', async () => {
    const file = utf8Csv([
      HEADER,
      row('A'),
      ['', 'O-x', '1,000', '2026-11-30 10:00:00', '승인'],
      row('B', '1,000.5'),
      row('C', '천원'),
      row('D', '1,000', '2026-13-01 10:00:00'),
      row('E', '1,000', '어제'),
      row('F', ''),
    ], false);
    expect(await problemsOf(file)).toEqual([
      { code: 'empty_cell', line: 3, column: 'PG거래번호' },
      { code: 'unreadable_amount', line: 4, column: '거래금액' },
      { code: 'unreadable_amount', line: 5, column: '거래금액' },
      { code: 'unreadable_time', line: 6, column: '거래일시' },
      { code: 'unreadable_time', line: 7, column: '거래일시' },
      { code: 'empty_cell', line: 8, column: '거래금액' },
    ]);
  });

  test('the same transaction twice is refused, the message naming both lines', async () => {
    const result = await readGatewayList(utf8Csv([HEADER, row('A'), row('B'), row('A')], false), 'list.csv', LIMITS);
    expect(!result.ok && result.problems).toEqual([
      { code: 'duplicate_row', line: 4, column: null, message: expect.stringMatching(/rows 2 and 4 .*A/) },
    ]);
  });

  test('a workbook with a formula anywhere is refused, the cell named', async () => {
    const file = await workbookFile({
      rows: [
        HEADER,
        ['A', 'O-A', 1000, excelWallClock(2026, 11, 30, 10), '승인'],
        ['B', 'O-B', { formula: 'C2*2', result: 2000 }, excelWallClock(2026, 11, 30, 11), '승인'],
        ['C', 'O-C', { sharedFormula: 'C3', result: 2000 }, excelWallClock(2026, 11, 30, 12), '승인'],
        [null, null, null, null, null, { formula: 'SUM(C2:C3)', result: 3000 }],
      ],
    });
    expect(await problemsOf(file, 'list.xlsx')).toEqual([
      { code: 'formula', line: 3, column: 'C3' },
      { code: 'formula', line: 4, column: 'C4' },
      { code: 'formula', line: 5, column: 'F5' },
    ]);
  });

  test('a transaction number a workbook holds as a number of more than 15 digits is refused, not rounded', async () => {
    const file = await workbookFile({
      rows: [HEADER, [123456789012345, 'O1', 1000, '2026-11-30 10:00:00', '승인'], [2611301400000001, 'O2', 1000, '2026-11-30 10:00:00', '승인']],
    });
    expect(await problemsOf(file, 'list.xlsx')).toEqual([{ code: 'unreadable_cell', line: 3, column: 'PG거래번호' }]);
  });

  test('a file that is not a workbook but is named one is refused', async () => {
    expect(await problemsOf(Buffer.from('PK\u0003\u0004 broken', 'latin1'), 'list.xlsx')).toEqual([{ code: 'unreadable_file', line: null, column: null }]);
  });
});
