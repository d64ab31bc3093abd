import type { GatewaySettlementFact, OrderKey, SettledTransaction } from '../../ledger/fold/ledger-facts';
import { ledgerId } from '../../ledger/fold/ledger-id';
import { orderKeyText } from '../../ledger/fold/order-key';
import type { SettlementRow } from '../file/gateway-rows';

/** A settlement statement's import, as its facts name it. */
export interface SettlementImport {
  id: string;
  /** When it was imported: the facts' `at` and `recordedAt`. */
  at: string;
}

/**
 * One `gateway_settlement` fact per order the statement's rows are placed in (the file's order
 * number, else the order its pgCno was notified for), with its rows. The fact's id is of the
 * import, the order and its rows: importing the same file again makes the same facts. A statement
 * says nothing of an order it has no row of, so no order gets a fact without rows.
 */
export function settlementFacts(statement: SettlementImport, placed: ReadonlyArray<{ order: OrderKey; row: SettlementRow }>): Array<{ order: OrderKey; fact: GatewaySettlementFact }> {
  const byOrder = new Map<string, { order: OrderKey; rows: SettledTransaction[] }>();
  for (const { order, row } of placed) {
    const key = orderKeyText(order);
    let entry = byOrder.get(key);
    if (entry === undefined) byOrder.set(key, (entry = { order, rows: [] }));
    entry.rows.push(settled(row));
  }
  return [...byOrder.values()].map(({ order, rows }) => ({
    order,
    fact: {
      kind: 'gateway_settlement',
      id: ledgerId('gws_', [statement.id, order.mallId, order.shopOrderNo, JSON.stringify(rows)]),
      at: statement.at,
      recordedAt: statement.at,
      importId: statement.id,
      rows,
    },
  }));
}

/** What the ledger keeps of a row: ids, amounts and days, never the file's other columns. */
function settled(row: SettlementRow): SettledTransaction {
  return {
    line: row.line, pgCno: row.pgCno, cancelPgCno: row.cancelPgCno, gross: row.gross, fee: row.fee, feeVat: row.feeVat, payout: row.payout,
    payoutDay: row.payoutDay, transactionDay: row.transactionDay,
  };
}
