import { readGatewayList } from '../../../src/reconciliation/file/read-gateway-list';
import { cp949Csv, excelWallClock, LIMITS, utf8Csv, workbookFile } from './list-files';

/** A KICC-style export: a title, the query period, a two-row header whose 금액 spans two sub-columns. */
function portalSheet() {
  return {
    rows: [
      ['거래내역 조회'],
      ['조회기간: 2026-11-30 ~ 2026-11-30'],
      [],
      ['PG거래번호', '주문번호', '금액', null, '거래일시', '거래상태', '결제수단'],
      [null, null, '거래금액(원)', '취소금액(원)', null, null, null],
      ['T0001', 'ORD-1', 10000, 0, excelWallClock(2026, 11, 30, 14, 3, 22), '승인', '신용카드'],
      ['T0002', 'ORD-2', '5,000원', '', '2026-11-30 23:10:00', '정상', '계좌이체'],
      ['T0001', 'ORD-1', '-10,000', '', '2026.11.30 15:00', '전체취소', '신용카드'],
      ['T0003', 'ORD-3', '₩3,000', '1,000', '20261130090501', '부분취소', '신용카드'],
      [],
      ['합계', null, 28000, 1000, null, null, null],
    ],
    merges: ['A1:G1', 'A4:A5', 'B4:B5', 'C4:D4', 'E4:E5', 'F4:F5', 'G4:G5'],
  };
}

describe('reading a transaction list', () => {
  test('a workbook with title rows, a merged two-row header, Excel and text dates and a totals row reads every transaction', async () => {
    const result = await readGatewayList(await workbookFile(portalSheet()), 'list.xlsx', LIMITS);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.kind).toBe('transactions');
    expect(result.mapping).toMatchObject({ pgCno: 'PG거래번호', amount: '금액 거래금액(원)', cancelledAmount: '금액 취소금액(원)', at: '거래일시' });
    expect(result.rows).toEqual([
      { line: 6, pgCno: 'T0001', cancelPgCno: null, kind: 'payment', shopOrderNo: 'ORD-1', approvalNo: null, amount: 10000, cancelledAmount: 0, at: '2026-11-30T05:03:22.000Z', status: 'approved', statusText: '승인', method: '신용카드' },
      { line: 7, pgCno: 'T0002', cancelPgCno: null, kind: 'payment', shopOrderNo: 'ORD-2', approvalNo: null, amount: 5000, cancelledAmount: null, at: '2026-11-30T14:10:00.000Z', status: 'approved', statusText: '정상', method: '계좌이체' },
      { line: 8, pgCno: 'T0001', cancelPgCno: null, kind: 'cancel', shopOrderNo: 'ORD-1', approvalNo: null, amount: 10000, cancelledAmount: null, at: '2026-11-30T06:00:00.000Z', status: 'cancelled', statusText: '전체취소', method: '신용카드' },
      { line: 9, pgCno: 'T0003', cancelPgCno: null, kind: 'cancel', shopOrderNo: 'ORD-3', approvalNo: null, amount: 3000, cancelledAmount: 1000, at: '2026-11-30T00:05:01.000Z', status: 'partially_cancelled', statusText: '부분취소', method: '신용카드' },
    ]);
    expect(result.skipped.map((skip) => [skip.code, skip.line])).toEqual([['totals_row', 11]]);
    expect([result.firstDay, result.lastDay]).toEqual(['2026-11-30', '2026-11-30']);
  });

  test('the days covered are KST days: a transaction at 00:30 KST belongs to that day, not the UTC day before', async () => {
    const file = utf8Csv([
      ['거래번호', '거래금액', '거래일시'],
      ['A1', '1000', '2026-11-29 08:00:00'],
      ['A2', '1000', '2026-12-01 00:30:00'],
    ], false);
    const result = await readGatewayList(file, 'list.csv', LIMITS);
    expect(result.ok && [result.firstDay, result.lastDay]).toEqual(['2026-11-29', '2026-12-01']);
  });

  test('a CP949 CSV with quoted fields, CRLF and an Inicis-style header (TID, date and time in two columns, 거래구분) reads', async () => {
    const file = cp949Csv([
      ['KG이니시스 거래내역'],
      ['TID', '주문번호(OID)', '거래구분', '승인번호', '승인금액', '거래일자', '거래시간', '지불수단', '취소 TID'],
      ['INIMX0001', 'ORD,"7"', '승인', '30012345', '12,000', '2026/11/30', '14:03:22', '카드', ''],
      ['INIMX0001', 'ORD,"7"', '취소', '30012345', '12,000', '2026/11/30', '153000', '카드', 'INIMX0002'],
    ]);
    const result = await readGatewayList(file, 'inicis.csv', LIMITS);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.rows.map((row) => [row.line, 'pgCno' in row && row.pgCno, 'kind' in row && row.kind, 'cancelPgCno' in row && row.cancelPgCno])).toEqual([
      [3, 'INIMX0001', 'payment', null],
      [4, 'INIMX0001', 'cancel', 'INIMX0002'],
    ]);
    expect(result.rows[0]).toMatchObject({ shopOrderNo: 'ORD,"7"', approvalNo: '30012345', amount: 12000, at: '2026-11-30T05:03:22.000Z', status: 'approved', statusText: '승인', method: '카드' });
    expect(result.rows[1]).toMatchObject({ amount: 12000, at: '2026-11-30T06:30:00.000Z', status: 'cancelled' });
  });

  test.each([
    ['with a byte order mark', true],
    ['without one', false],
  ])('a UTF-8 CSV %s and Toss-style headers reads, its English status codes mapped', async (_name, bom) => {
    const file = utf8Csv([
      ['주문번호', '결제 키', 'PG 거래번호', '결제금액', '승인일시', '결제상태', '결제수단'],
      ['ORD-9', 'tgen_1', 'TS0001', '(2,500)', '2026-11-30 10:00', 'CANCELED', '카드'],
      ['ORD-8', 'tgen_2', 'TS0002', '7,000', '2026-11-30 11:00', 'DONE', '카드'],
      ['ORD-7', 'tgen_3', 'TS0003', '1000', '2026-11-30 12:00', 'ABORTED', '카드'],
    ], bom);
    const result = await readGatewayList(file, 'toss.csv', LIMITS);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.rows.map((row) => 'status' in row && [row.pgCno, row.kind, row.amount, row.status])).toEqual([
      ['TS0001', 'cancel', 2500, 'cancelled'],
      ['TS0002', 'payment', 7000, 'approved'],
      ['TS0003', 'payment', 1000, 'failed'],
    ]);
  });

  test('a list without a status column reads its payments as approved and its cancels (by cancel number) as cancelled', async () => {
    const file = utf8Csv([
      ['거래고유번호', '취소거래번호', '금액', '거래일시'],
      ['N1', '', '1000', '2026-11-30 10:00:00'],
      ['N1', 'N1C', '1000', '2026-11-30 10:05:00'],
    ], true);
    const result = await readGatewayList(file, 'nice.csv', LIMITS);
    expect(result.ok && result.rows.map((row) => 'status' in row && [row.kind, row.status, row.statusText])).toEqual([
      ['payment', 'approved', ''],
      ['cancel', 'cancelled', ''],
    ]);
  });

  test('a mapping given by header names reads a file whose headers no portal uses', async () => {
    const file = utf8Csv([
      ['No', 'Reference', 'Paid', 'When', 'What'],
      ['1', 'X-1', '1,000', '2026-11-30 09:00:00', 'OK'],
    ], false);
    const mapping = { pgCno: 'Reference', amount: 'Paid', at: 'When', status: 'What' };
    const result = await readGatewayList(file, 'custom.csv', { ...LIMITS, mapping });
    expect(result.ok && result.rows[0]).toMatchObject({ pgCno: 'X-1', amount: 1000, at: '2026-11-30T00:00:00.000Z', status: 'other', statusText: 'OK' });
    expect(result.ok && result.mapping).toEqual(mapping);
  });
});
