import { readGatewayList } from '../../../src/reconciliation/file/read-gateway-list';
import type { BookedTransaction } from '../../../src/sandbox/gateway-books';
import { portalFile, type PortalFormat } from '../../../src/sandbox/portal-files';
import { settlementStatement, transactionList } from '../../../src/sandbox/portal-lists';
import { LIMITS } from './list-files';

const booked = (overrides: Partial<BookedTransaction>): BookedTransaction => ({
  kind: 'payment', mallId: 'T5102001', pgCno: '26113014000000000001', cancelPgCno: null, shopOrderNo: 'ORD-1',
  approvalNo: '30012345', amount: 12000, remainingAfter: null, method: '신용카드', at: '2026-11-30T05:03:22.000Z', ...overrides,
});

const BOOKS = [
  booked({}),
  booked({ kind: 'cancel', cancelPgCno: '26113014000000000002', approvalNo: null, amount: 2000, remainingAfter: 10000, at: '2026-11-30T06:00:00.000Z' }),
  booked({ pgCno: '26113014000000000003', shopOrderNo: 'ORD-2', amount: 5000, method: '간편결제', at: '2026-11-30T14:59:59.000Z' }),
];
const HEADING = { mallId: 'T5102001', from: '2026-11-30', to: '2026-11-30' };

describe("the sandbox portal's files read back as the transactions the sandbox booked", () => {
  test.each<[PortalFormat]>([['xlsx'], ['csv']])('the transaction list as %s', async (format) => {
    const result = await readGatewayList(await portalFile(transactionList(BOOKS), HEADING, format), `list.${format}`, LIMITS);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.rows.map((row) => 'kind' in row && [row.kind, row.pgCno, row.cancelPgCno, row.amount, row.at, row.status])).toEqual([
      ['payment', '26113014000000000001', null, 12000, '2026-11-30T05:03:22.000Z', 'approved'],
      ['cancel', '26113014000000000001', '26113014000000000002', 2000, '2026-11-30T06:00:00.000Z', 'partially_cancelled'],
      ['payment', '26113014000000000003', null, 5000, '2026-11-30T14:59:59.000Z', 'approved'],
    ]);
    expect(result.skipped.map((skip) => skip.code)).toContain('totals_row');
    expect([result.firstDay, result.lastDay]).toEqual(['2026-11-30', '2026-11-30']);
  });

  test.each<[PortalFormat]>([['xlsx'], ['csv']])('the settlement statement as %s adds up row by row', async (format) => {
    const result = await readGatewayList(await portalFile(settlementStatement(BOOKS), HEADING, format), `statement.${format}`, LIMITS);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.kind).toBe('settlement');
    expect(result.rows).toHaveLength(3);
    for (const row of result.rows) {
      if (!('payout' in row)) throw new Error('not a settlement row');
      expect(row.payout).toBe(row.gross - row.fee - row.feeVat);
      expect(row.payoutDay).toBe('2026-12-02');
    }
    expect(result.rows.map((row) => 'gross' in row && row.gross)).toEqual([12000, -2000, 5000]);
  });
});
