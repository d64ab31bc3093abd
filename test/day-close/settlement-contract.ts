import type { Stores } from '../../src/ledger/projector/open-stores';
import type { SettlementRow } from '../../src/reconciliation/file/gateway-rows';
import { notify } from '../daily-summary/summary-kit';

const DEFAULT = 'KRW';
const MALL = 'T0000001';

/** A statement row that adds up (gross − fee − VAT = payout) unless `payout` is given. */
function row(line: number, pgCno: string, gross: number, fee: number, transactionDay: string, payoutDay: string, payout?: number): SettlementRow {
  const feeVat = Math.floor(fee / 10);
  return { line, pgCno, cancelPgCno: null, shopOrderNo: `ORD-${pgCno}`, gross, fee, feeVat, payout: payout ?? gross - fee - feeVat, payoutDay, transactionDay };
}

/** The settlement statement's figures in the day's money, on each database (settlement.test.ts). */
export function settlementContract(openFresh: () => Promise<{ stores: Stores; cleanup(): Promise<void> }>): void {
  let s: { stores: Stores; cleanup(): Promise<void> };
  beforeEach(async () => {
    s = await openFresh();
  });
  afterEach(async () => s.cleanup());
  const summary = (from: string, to: string) => s.stores.ledger.dailySummary({ from, to, mallId: MALL }, DEFAULT);

  test('fees and VAT book on the transactions\' day, the payout on its payout day with the days it pays for; storing the same import again counts it once', async () => {
    await s.stores.store.record(notify.paid({ mallId: MALL, shopOrderNo: 'ORD-A' }, 'PG-A', 10000, 60));
    await s.stores.ledger.caughtUp();
    const rows = [row(2, 'PG-A', 10000, 300, '2026-11-22', '2026-11-24'), row(3, 'PG-B', 20000, 600, '2026-11-23', '2026-11-24'), row(4, 'PG-C', 5000, 150, '2026-11-23', '2026-11-25')];
    expect(await s.stores.ledger.putSettlementRows('imp-1', MALL, rows)).toEqual({ rows: 3 });
    expect(await s.stores.ledger.putSettlementRows('imp-1', MALL, rows)).toEqual({ rows: 3 });
    const days = await summary('2026-11-22', '2026-11-25');
    const on = (date: string) => days.find((d) => d.date === date && d.currency === DEFAULT);
    expect(on('2026-11-22')).toMatchObject({ payments: { count: 1, amount: 10000 }, settlement: { count: 1, gross: 10000, fee: 300, feeVat: 30, payout: 9670 } });
    expect(on('2026-11-23')).toMatchObject({ settlement: { count: 2, gross: 25000, fee: 750, feeVat: 75, payout: 24175 } });
    expect(on('2026-11-24')!.payouts).toEqual({ count: 2, amount: 9670 + 19340, fromDays: [{ day: '2026-11-22', count: 1, amount: 9670 }, { day: '2026-11-23', count: 1, amount: 19340 }] });
    expect(on('2026-11-25')!.payouts).toEqual({ count: 1, amount: 4835, fromDays: [{ day: '2026-11-23', count: 1, amount: 4835 }] });
    expect(await s.stores.ledger.payoutDifferences('2026-11-01', '2026-11-30', null)).toEqual([]);
  });

  test('a payout whose rows do not add up is listed per payout day with the rows and by how much; one stated differently by two imports too', async () => {
    await s.stores.ledger.putSettlementRows('imp-1', MALL, [row(2, 'PG-A', 10000, 300, '2026-11-22', '2026-11-24', 9700), row(3, 'PG-B', 20000, 600, '2026-11-22', '2026-11-24')]);
    await s.stores.ledger.putSettlementRows('imp-2', MALL, [row(2, 'PG-D', 1000, 30, '2026-11-23', '2026-11-26')]);
    await s.stores.ledger.putSettlementRows('imp-3', MALL, [row(2, 'PG-D', 1000, 30, '2026-11-23', '2026-11-26', 968)]);
    const differences = await s.stores.ledger.payoutDifferences('2026-11-01', '2026-11-30', MALL);
    expect(differences).toEqual([
      {
        payoutDay: '2026-11-24', mallId: MALL, payout: 9700 + 19340, computed: 9670 + 19340, difference: 30, statedByImport: [],
        rows: [{ importId: 'imp-1', line: 2, pgCno: 'PG-A', cancelPgCno: null, gross: 10000, fee: 300, feeVat: 30, payout: 9700, difference: 30 }],
      },
      expect.objectContaining({ payoutDay: '2026-11-26', statedByImport: [{ importId: 'imp-2', payout: 967 }, { importId: 'imp-3', payout: 968 }] }),
    ]);
  });

  test('a closed day keeps the fees it showed when it closed', async () => {
    await s.stores.ledger.putSettlementRows('imp-1', MALL, [row(2, 'PG-A', 10000, 300, '2026-11-22', '2026-11-24')]);
    await s.stores.ledger.closeDay('2026-11-22', MALL, { at: new Date().toISOString(), actor: 'kim (console)' }, DEFAULT);
    await s.stores.ledger.putSettlementRows('imp-2', MALL, [row(2, 'PG-B', 50000, 1500, '2026-11-22', '2026-11-24')]);
    const closed = (await summary('2026-11-22', '2026-11-22')).find((d) => d.currency === DEFAULT);
    expect(closed).toMatchObject({ settlement: { count: 1, fee: 300 }, closed: { by: 'kim (console)' } });
  });
}
