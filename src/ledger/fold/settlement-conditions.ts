import type { GatewaySettlementFact, SettledTransaction } from './ledger-facts';
import type { OrderFigures } from './order-figures';
import type { DiscrepancyKind } from './order-record';
import type { Timed } from './order-state';
import type { ShownCondition } from './shown-condition';

/** The differences a settlement statement opens, in the order they are told: a row's payout, then its gross against the ledger. */
export const SETTLEMENT_KINDS = ['payout_does_not_add_up', 'settlement_amount_differs'] as const satisfies readonly DiscrepancyKind[];

type Statement = Timed<GatewaySettlementFact>;

/** What a statement's row should pay out by its own figures: the gross less the fee and the fee's VAT (integers in won: "adds up" is equality). */
export const computedPayout = (row: Pick<SettledTransaction, 'gross' | 'fee' | 'feeVat'>): number => row.gross - row.fee - row.feeVat;

/**
 * The order's notifications against what the gateway's imported settlement statements say about
 * it. The statement imported latest that has a row for a transaction (a payment by its pgCno, a
 * cancel by its cancelPgCno) is the gateway's word on it: a statement issued again corrects the
 * first one, row by row. Each governing row opens at most one condition of each kind:
 * - `payout_does_not_add_up`: its gross less the fee and the fee's VAT is not its payout (integers
 *   in won, so "adds up" is equality): the gateway pays out another sum than its own figures say;
 * - `settlement_amount_differs`: its gross is not what the ledger holds for the transaction. A
 *   cancel's gross is negative (the gateway takes it back), so a cancel of 5,000 matches −5,000.
 *   A row of a transaction the ledger holds no notification of opens none: the transaction list
 *   is what finds those (`notification_missing`).
 */
export function settlementConditions(figures: OrderFigures): ShownCondition[] {
  const { settlements } = figures;
  if (settlements.length === 0) return [];
  const governing = new Map<string, { row: SettledTransaction; statement: Statement }>();
  const first = new Map<string, string>();
  for (const statement of settlements) {
    for (const row of statement.fact.rows) {
      const key = transactionKey(row);
      governing.set(key, { row, statement });
      if (!first.has(key)) first.set(key, statement.id);
    }
  }
  const shown: ShownCondition[] = [];
  for (const [key, { row }] of governing) {
    const place = { pgCno: row.pgCno, cancelPgCno: row.cancelPgCno, day: row.transactionDay ?? row.payoutDay, payoutDay: row.payoutDay };
    const computed = computedPayout(row);
    if (computed !== row.payout) {
      shown.push({
        kind: 'payout_does_not_add_up',
        // The first statement that had the row: one issued again with the same error shows the same discrepancy.
        eventIds: [first.get(key)!],
        details: { ...place, gross: row.gross, fee: row.fee, feeVat: row.feeVat, payout: row.payout, computed, line: row.line },
      });
    }
    const held = heldFor(figures, row);
    if (held !== null && held.gross !== row.gross) {
      shown.push({ kind: 'settlement_amount_differs', eventIds: [held.eventId], details: { ...place, gross: row.gross, notifiedAmount: held.amount, line: row.line } });
    }
  }
  return shown;
}

const isCancel = (row: SettledTransaction): boolean => row.cancelPgCno !== null || row.gross < 0;

const transactionKey = (row: SettledTransaction): string => JSON.stringify([row.pgCno, row.cancelPgCno, row.cancelPgCno === null && row.gross < 0 ? row.gross : null]);

/**
 * What the ledger holds for the row's transaction, as the statement would state it (a cancel
 * negative), with the notification that holds it; null when it holds none. A cancel row that
 * names no cancel is the payment's cancel of that amount.
 */
function heldFor(figures: OrderFigures, row: SettledTransaction): { gross: number | null; amount: number | null; eventId: string } | null {
  if (isCancel(row)) {
    const cancel = figures.cancels.find((c) => (row.cancelPgCno !== null ? c.cancelPgCno === row.cancelPgCno : c.pgCno === row.pgCno && c.amount === -row.gross));
    return cancel === undefined ? null : { gross: cancel.amount === null ? null : -cancel.amount, amount: cancel.amount, eventId: cancel.eventId };
  }
  const payment = [...figures.payments, ...figures.deposits].find((p) => p.pgCno === row.pgCno);
  return payment === undefined ? null : { gross: payment.amount, amount: payment.amount, eventId: payment.eventId };
}
