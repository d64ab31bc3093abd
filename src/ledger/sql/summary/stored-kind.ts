import type { BookingKind } from '../../summary/order-bookings';

/**
 * A simulated order's bookings are kept under their kind with this prefix (`simulated:payment`):
 * the tables' key (day, mall, currency, kind, method) then sums them apart from the real money
 * with no new column in it, and the out-and-in of a changed order moves them as it moves the
 * others, so an order the simulator started and a real notification made real moves whole.
 * Status rows and discrepancy counts are never prefixed: they count orders and work, not money.
 */
const SIMULATED = 'simulated:';
const MONEY_KINDS: ReadonlySet<string> = new Set<BookingKind>(['payment', 'cancel', 'deposit', 'deposit_cancel', 'refund_failed', 'refund_failed_unknown']);

export function storedKind(kind: BookingKind | 'status', simulated: boolean): string {
  return simulated && MONEY_KINDS.has(kind) ? `${SIMULATED}${kind}` : kind;
}

/** The kind a stored row sums, and whether it is the simulated orders' sum. */
export function kindOfStored(stored: string): { kind: string; simulated: boolean } {
  return stored.startsWith(SIMULATED) ? { kind: stored.slice(SIMULATED.length), simulated: true } : { kind: stored, simulated: false };
}
