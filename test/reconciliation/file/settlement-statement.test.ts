import { readGatewayList } from '../../../src/reconciliation/file/read-gateway-list';
import { cp949Csv, excelWallClock, LIMITS, workbookFile } from './list-files';

describe('reading a settlement statement', () => {
  test('a workbook statement is found by its headers and read with fees, VAT, payout and days', async () => {
    const file = await workbookFile({
      rows: [
        ['정산내역서'],
        ['거래일자', 'PG거래번호', '취소거래번호', '가맹점주문번호', '매출금액(원)', '수수료(원)', '부가세(원)', '정산금액(원)', '지급예정일'],
        [excelWallClock(2026, 11, 30), 'T0001', null, 'ORD-1', 10000, 250, 25, 9725, excelWallClock(2026, 12, 2)],
        ['2026-11-30', 'T0001', 'T0001C', 'ORD-1', -10000, -250, -25, '-9,725', '2026.12.02'],
        ['소계', null, null, null, 0, 0, 0, 0, null],
      ],
    });
    const result = await readGatewayList(file, 'settlement.xlsx', LIMITS);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.kind).toBe('settlement');
    expect(result.rows).toEqual([
      { line: 3, pgCno: 'T0001', cancelPgCno: null, shopOrderNo: 'ORD-1', gross: 10000, fee: 250, feeVat: 25, payout: 9725, payoutDay: '2026-12-02', transactionDay: '2026-11-30' },
      { line: 4, pgCno: 'T0001', cancelPgCno: 'T0001C', shopOrderNo: 'ORD-1', gross: -10000, fee: -250, feeVat: -25, payout: -9725, payoutDay: '2026-12-02', transactionDay: '2026-11-30' },
    ]);
    expect(result.skipped.map((skip) => skip.code)).toEqual(['totals_row']);
  });

  test('a CP949 statement without a VAT column reads its VAT as zero; asked for as a transaction list it is refused', async () => {
    const file = cp949Csv([
      ['거래번호', '결제금액', '가맹점수수료', '입금액', '입금일'],
      ['S1', '20,000', '500', '19,500', '20261201'],
    ]);
    const result = await readGatewayList(file, 'statement.csv', LIMITS);
    expect(result.ok && result.rows).toEqual([
      { line: 2, pgCno: 'S1', cancelPgCno: null, shopOrderNo: null, gross: 20000, fee: 500, feeVat: 0, payout: 19500, payoutDay: '2026-12-01', transactionDay: null },
    ]);
    expect(result.ok && [result.firstDay, result.lastDay]).toEqual(['2026-12-01', '2026-12-01']);
    const asList = await readGatewayList(file, 'statement.csv', { ...LIMITS, kind: 'transactions' });
    expect(!asList.ok && asList.problems.map((problem) => problem.code)).toEqual(['missing_column']);
    expect(!asList.ok && asList.problems[0]!.message).toMatch(/at \(/);
  });
});
