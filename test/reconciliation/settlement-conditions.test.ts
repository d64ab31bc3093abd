import type { SettlementRow } from '../../src/reconciliation/file/gateway-rows';
import type { GatewaySettlementFact } from '../../src/ledger/fold/ledger-facts';
import { settlementFacts } from '../../src/reconciliation/matching/settlement-facts';
import { ORDER, approval, minute, partialCancel } from '../ledger/ledger-fixtures';
import { given, openKinds } from '../ledger/ledger-specification';

const DAY = '2026-11-21';
const PAYOUT_DAY = '2026-11-24';

/** A statement row as the reader gives it: adds up (fee's VAT a tenth of the fee) unless `payout` is given. */
function row(o: Partial<SettlementRow> & { pgCno: string; gross: number; fee: number }): SettlementRow {
  const feeVat = o.feeVat ?? Math.trunc(o.fee / 10);
  return {
    line: 2, cancelPgCno: null, shopOrderNo: ORDER.shopOrderNo, payoutDay: PAYOUT_DAY, transactionDay: DAY, feeVat, payout: o.gross - o.fee - feeVat, ...o,
  };
}

/** The order's fact of one import of `rows`, imported `received` minutes after the fixtures' base. */
function statement(rows: SettlementRow[], received: number): GatewaySettlementFact {
  return settlementFacts({ id: `gwi_${received}`, at: minute(received) }, rows.map((r) => ({ order: ORDER, row: r })))[0]!.fact;
}

const paid = approval({ pgCno: 'PG-1', amount: 30000, at: 1 });
const cancel = partialCancel({ pgCno: 'PG-1', cancelPgCno: 'CX-1', cancelAmount: 5000, remainAmount: 25000, at: 2 });

describe("the gateway's settlement statement against the order's notifications", () => {
  it('a payment and a cancel settled with their amounts, whose payouts add up, open nothing', () => {
    given(paid, cancel).when(statement([row({ pgCno: 'PG-1', gross: 30000, fee: 900 }), row({ line: 3, pgCno: 'PG-1', cancelPgCno: 'CX-1', gross: -5000, fee: -150 })], 600))
      .then((record) => {
        expect(record.discrepancies).toEqual([]);
        expect(record.status).toBe('partially_cancelled');
      });
  });

  it('a row whose gross less fee and VAT is not its payout is payout_does_not_add_up, with its figures and by how much', () => {
    given(paid).when(statement([row({ pgCno: 'PG-1', gross: 30000, fee: 900, payout: 29100 })], 600)).then((record) => {
      expect(openKinds(record)).toEqual(['payout_does_not_add_up']);
      expect(record.discrepancies[0]!.details).toEqual({
        pgCno: 'PG-1', cancelPgCno: null, day: DAY, payoutDay: PAYOUT_DAY, gross: 30000, fee: 900, feeVat: 90, payout: 29100, computed: 29010, line: 2,
      });
      expect(record.discrepancies[0]!.openedAt).toBe(minute(600));
    });
  });

  it('a payment settled for another gross is settlement_amount_differs; a cancel is negative, so a positive one differs too', () => {
    given(paid, cancel).when(statement([row({ pgCno: 'PG-1', gross: 3000, fee: 90 }), row({ line: 3, pgCno: 'PG-1', cancelPgCno: 'CX-1', gross: 5000, fee: 150 })], 600))
      .then((record) => {
        expect(openKinds(record)).toEqual(['settlement_amount_differs', 'settlement_amount_differs']);
        expect(record.discrepancies.map((d) => d.details)).toEqual(expect.arrayContaining([
          expect.objectContaining({ pgCno: 'PG-1', cancelPgCno: null, gross: 3000, notifiedAmount: 30000, line: 2 }),
          expect.objectContaining({ pgCno: 'PG-1', cancelPgCno: 'CX-1', gross: 5000, notifiedAmount: 5000, line: 3 }),
        ]));
      });
  });

  it('a statement without the transaction\'s notification opens nothing: the transaction list finds that', () => {
    given(paid).when(statement([row({ pgCno: 'PG-OTHER', gross: 1000, fee: 30 })], 600)).then((record) => expect(record.discrepancies).toEqual([]));
  });

  it('the statement imported later governs its transactions: a corrected one closes both, one that leaves a transaction out leaves the earlier row governing it', () => {
    const wrong = statement([row({ pgCno: 'PG-1', gross: 3000, fee: 90, payout: 1 })], 600);
    given(paid, wrong).when(statement([row({ pgCno: 'PG-1', gross: 30000, fee: 900 })], 700)).then((record) => {
      expect(openKinds(record)).toEqual([]);
      expect(record.discrepancies.map((d) => [d.kind, d.resolvedBy, d.resolvedAt])).toEqual([
        ['payout_does_not_add_up', 'ledger', minute(700)], ['settlement_amount_differs', 'ledger', minute(700)],
      ]);
    });
    given(paid, wrong).when(statement([row({ pgCno: 'PG-OTHER', gross: 1000, fee: 30 })], 700))
      .then((record) => expect(openKinds(record).sort()).toEqual(['payout_does_not_add_up', 'settlement_amount_differs']));
  });
});
