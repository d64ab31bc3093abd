import type { OrderFigures } from './order-figures';
import type { Discrepancy, Expected, OrderStatus } from './order-record';

/**
 * An order's status, the first that applies (docs/ledger.md). An over-cancel still inside its grace period reads as cancelled.
 * The status describes the money the order holds now, one payment or deposit at a time, not the
 * sums over its history: pay, cancel in full, pay again (a new pgCno) is `paid`; it is
 * `partially_cancelled` only when a payment still live has lost part of itself, or when a cancel
 * that names none of the order's payments (or takes more than its payment held) came off the
 * money the order still holds. What it holds is compared with the expectation whether or not a
 * discrepancy about it is open: a resolution records a decision, it never turns less money into `paid`.
 */
export function orderStatus(
  figures: Pick<OrderFigures, 'approved' | 'deposited' | 'remaining' | 'holdings' | 'unheldCancelled'>,
  expected: Expected | null,
  discrepancies: readonly Discrepancy[],
): OrderStatus {
  const open = discrepancies.filter((d) => d.resolvedAt === null);
  if (open.some((d) => d.kind === 'refund_transfer_failed')) return 'refund_failed';
  if (open.length > 0) return 'discrepancy';
  const paid = figures.approved > 0 || figures.deposited > 0;
  if (paid && figures.remaining <= 0) return 'cancelled';
  if (paid && partlyCancelled(figures)) return 'partially_cancelled';
  if (paid) return heldAgainst(figures, expected);
  if (expected?.method === 'vaccount') return 'awaiting_deposit';
  return 'awaiting_payment';
}

/** The whole payments and deposits still live, against the expected amount (nothing expected: whatever is held is `paid`). */
function heldAgainst(figures: Pick<OrderFigures, 'holdings'>, expected: Expected | null): 'underpaid' | 'overpaid' | 'paid' {
  if (expected === null) return 'paid';
  let held = 0;
  for (const { amount, taken } of figures.holdings.values()) if (taken === 0) held += amount;
  if (held < expected.amount) return 'underpaid';
  if (held > expected.amount) return 'overpaid';
  return 'paid';
}

function partlyCancelled(figures: Pick<OrderFigures, 'holdings' | 'unheldCancelled'>): boolean {
  let overTaken = 0;
  for (const { amount, taken } of figures.holdings.values()) {
    if (taken > 0 && taken < amount) return true;
    if (taken > amount) overTaken += taken - amount;
  }
  return overTaken + figures.unheldCancelled > 0;
}
