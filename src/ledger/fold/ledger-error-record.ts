import type { OrderKey } from './ledger-facts';
import type { OrderRecord } from './order-record';

/**
 * The record of an order whose inputs the ledger could not apply: the
 * figures it last had (none for an order never computed), the status `ledger_error` and the error,
 * so the order shows it while every other order goes on. `ledger rebuild` computes it again.
 */
export function ledgerErrorRecord(order: OrderKey, stored: OrderRecord | null, error: string, at: string): OrderRecord {
  const base: OrderRecord = stored ?? {
    mallId: order.mallId,
    shopOrderNo: order.shopOrderNo,
    status: 'ledger_error',
    expected: null,
    approved: 0,
    cancelled: 0,
    remaining: 0,
    deposited: 0,
    payments: [],
    cancels: [],
    deposits: [],
    escrow: null,
    cancellationsRequested: [],
    events: [],
    discrepancies: [],
    updatedAt: at,
  };
  // The message is the fold's or the parser's, about facts, which hold no personal data.
  return { ...base, status: 'ledger_error', ledgerError: { error: error.slice(0, 500), at } };
}
