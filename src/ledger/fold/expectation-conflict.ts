import { sameInstant, type ExpectationInput } from './expectation-fact';
import type { LedgerFact } from './ledger-facts';
import { orderFigures } from './order-figures';
import { foldOrder } from './order-state';

/** Why a PUT expectation must be refused (409), or null when it may be stored. */
export type ExpectationConflict =
  | { reason: 'wallet_trade_amount'; amount: number; currency: string }
  | { reason: 'already_paid'; amount: number; currency: string; expiresAt: string | null };

/**
 * The amount the service asked the gateway for (a wallet-a trade) is not the shop's to restate,
 * and once money has moved, what it is checked against must not move under it: neither the
 * amount, nor its currency (an amount is in its currency's minor units: 1203 USD and 1203 KRW are
 * not one amount), nor the expiry (moving `expiresAt` past a late payment would clear its
 * payment_after_expiry as silently as a changed amount clears an amount_mismatch). Any of them would
 * let a changed expectation hide the very mismatch the ledger is there to catch.
 */
export function expectationConflict(facts: readonly LedgerFact[], input: ExpectationInput): ExpectationConflict | null {
  for (const fact of facts) {
    if (fact.kind === 'expectation' && fact.source === 'wallet-a' && (fact.amount !== input.amount || fact.currency !== input.currency)) {
      return { reason: 'wallet_trade_amount', amount: fact.amount, currency: fact.currency };
    }
  }
  const figures = orderFigures(foldOrder(facts));
  const current = figures.expectation?.fact;
  const paid = figures.payments.length > 0 || figures.deposits.length > 0;
  if (!paid || current === undefined) return null;
  if (current.amount !== input.amount || current.currency !== input.currency || !sameInstant(current.expiresAt, input.expiresAt)) {
    return { reason: 'already_paid', amount: current.amount, currency: current.currency, expiresAt: current.expiresAt };
  }
  return null;
}
