import type { Discrepancy, Expected, OrderStatus } from './order-record';

/** An order's status, the first that applies (docs/ledger.md). An over-cancel still inside its grace period reads as cancelled. */
export function orderStatus(
  figures: { approved: number; deposited: number; cancelled: number; remaining: number },
  expected: Expected | null,
  discrepancies: readonly Discrepancy[],
): OrderStatus {
  const open = discrepancies.filter((d) => d.resolvedAt === null);
  if (open.some((d) => d.kind === 'refund_transfer_failed')) return 'refund_failed';
  if (open.length > 0) return 'discrepancy';
  const paid = figures.approved > 0 || figures.deposited > 0;
  if (paid && figures.remaining <= 0) return 'cancelled';
  if (paid && figures.cancelled > 0) return 'partially_cancelled';
  if (paid) return 'paid';
  if (expected?.method === 'vaccount') return 'awaiting_deposit';
  return 'awaiting_payment';
}
