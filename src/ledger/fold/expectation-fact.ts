import type { ExpectationFact, ExpectationMethod, OrderKey } from './ledger-facts';
import { ledgerId } from './ledger-id';

export interface ExpectationInput {
  amount: number;
  currency: string;
  method: ExpectationMethod;
  expiresAt: string | null;
}

/**
 * PUT /v1/orders/<mallId>/<shopOrderNo>/expectation, stored at `at`. The time is part of the id:
 * a shop may set A, then B, then A again, and the last one must win. A repeat of the current
 * expectation is not stored at all (see `sameExpectation`), so it neither adds a fact nor moves
 * the order's last change, which would postpone the grace period.
 */
export function expectationFact(order: OrderKey, input: ExpectationInput, at: string): ExpectationFact {
  const { amount, currency, method, expiresAt } = input;
  return {
    kind: 'expectation',
    id: ledgerId('exp_', [order.mallId, order.shopOrderNo, 'expectation', amount, currency, method, expiresAt, at]),
    at,
    recordedAt: at,
    source: 'expectation',
    amount,
    currency,
    method,
    expiresAt,
  };
}

/**
 * A wallet-a trade that reached `succeeded`: the amount the service itself asked the gateway for.
 * One trade is one expectation, whenever its command is recomputed.
 */
export function walletTradeExpectation(
  order: OrderKey,
  trade: { shopTransactionId: string; totalAmount: number; currency: string },
  at: string,
): ExpectationFact {
  return {
    kind: 'expectation',
    id: ledgerId('exp_', [order.mallId, order.shopOrderNo, 'wallet-a', trade.shopTransactionId]),
    at,
    recordedAt: at,
    source: 'wallet-a',
    amount: trade.totalAmount,
    currency: trade.currency,
    method: 'wallet',
    expiresAt: null,
  };
}

/** True when `input` says nothing new: the PUT is answered without storing a fact. */
export function sameExpectation(current: Omit<ExpectationFact, 'id' | 'at' | 'recordedAt' | 'kind'> | null, input: ExpectationInput): boolean {
  if (current === null) return false;
  return (
    current.amount === input.amount &&
    current.currency === input.currency &&
    current.method === input.method &&
    sameInstant(current.expiresAt, input.expiresAt)
  );
}

/** Two expiries are the same when they name the same instant (+09:00 and Z texts of one time are one). */
export function sameInstant(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return Date.parse(a) === Date.parse(b);
}
