import { previewGatewayList, readGatewayList } from '../../../src/reconciliation/file/read-gateway-list';
import { LIMITS, utf8Csv, workbookFile } from './list-files';

describe('the mapping screen and workbook layouts', () => {
  test('a preview of a file with unknown headers shows the likeliest header row, what is mapped and what is missing', async () => {
    const file = utf8Csv([
      ['가맹점 매출 현황'],
      ['No', 'PG거래번호', 'Paid', 'When'],
      ['1', 'X-1', '1,000', '2026-11-30 09:00:00'],
    ], false);
    const preview = await previewGatewayList(file, 'custom.csv', LIMITS, 5);
    expect(preview).toMatchObject({ kind: 'transactions', headerLine: 2, headers: ['No', 'PG거래번호', 'Paid', 'When'], mapping: { pgCno: 'PG거래번호' }, missing: ['amount', 'at'], rows: [] });
    expect(preview.fields).toEqual(expect.arrayContaining(['pgCno', 'amount', 'at', 'status']));

    const mapped = await previewGatewayList(file, 'custom.csv', { ...LIMITS, mapping: { pgCno: 'PG거래번호', amount: 'Paid', at: 'When' } }, 5);
    expect(mapped).toMatchObject({ headerLine: 2, missing: [], problems: [] });
    expect(mapped.rows).toEqual([expect.objectContaining({ line: 3, pgCno: 'X-1', amount: 1000, at: '2026-11-30T00:00:00.000Z' })]);
  });

  test('a preview reads only the first rows: a broken row further down does not show', async () => {
    const rows = [['거래번호', '거래금액', '거래일시']];
    for (let index = 1; index <= 20; index += 1) rows.push([`A${index}`, '1000', '2026-11-30 10:00:00']);
    rows.push(['A99', '천원', '2026-11-30 10:00:00']);
    const preview = await previewGatewayList(utf8Csv(rows, false), 'list.csv', LIMITS, 3);
    expect(preview.rows.map((row) => row.pgCno)).toEqual(['A1', 'A2', 'A3']);
    expect(preview.problems).toEqual([]);
  });

  test('a workbook whose first sheet is the search terms is read from the sheet with the list', async () => {
    const file = await workbookFile(
      { name: '조회조건', rows: [['조회기간', '2026-11-30 ~ 2026-11-30'], ['가맹점', 'shop']] },
      { name: '거래내역', rows: [['거래번호', '거래금액', '거래일시'], ['B1', 2000, '2026-11-30 10:00:00']] },
    );
    const result = await readGatewayList(file, 'list.xlsx', LIMITS);
    expect(result.ok && result.rows.map((row) => row.pgCno)).toEqual(['B1']);
  });

  test('a formula on a sheet other than the list still refuses the workbook', async () => {
    const file = await workbookFile(
      { name: '조회조건', rows: [['건수', { formula: 'COUNTA(거래내역!A:A)-1', result: 1 }]] },
      { name: '거래내역', rows: [['거래번호', '거래금액', '거래일시'], ['B1', 2000, '2026-11-30 10:00:00']] },
    );
    const result = await readGatewayList(file, 'list.xlsx', LIMITS);
    expect(!result.ok && result.problems.map(({ code, column }) => [code, column])).toEqual([['formula', 'B1']]);
  });

  test('an order number merged down two rows reaches both rows', async () => {
    const file = await workbookFile({
      rows: [
        ['거래번호', '주문번호', '거래금액', '거래일시', '거래구분'],
        ['C1', 'ORD-M', 3000, '2026-11-30 10:00:00', '승인'],
        ['C1', null, 3000, '2026-11-30 11:00:00', '취소'],
      ],
      merges: ['B2:B3'],
    });
    const result = await readGatewayList(file, 'list.xlsx', LIMITS);
    expect(result.ok && result.rows.map((row) => 'kind' in row && [row.kind, row.shopOrderNo])).toEqual([
      ['payment', 'ORD-M'],
      ['cancel', 'ORD-M'],
    ]);
  });
});
