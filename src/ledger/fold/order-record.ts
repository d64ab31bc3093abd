import type { ExpectationMethod } from './ledger-facts';

/** An order's status, the first that applies (see `orderStatus`). */
export const ORDER_STATUSES = [
  'ledger_error',
  'refund_failed',
  'discrepancy',
  'cancelled',
  'partially_cancelled',
  'underpaid',
  'overpaid',
  'paid',
  'awaiting_deposit',
  'awaiting_payment',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const DISCREPANCY_KINDS = [
  'amount_mismatch',
  'duplicate_payment',
  'over_cancel',
  'remaining_mismatch',
  'refund_transfer_failed',
  'unexpected_payment',
  'payment_after_expiry',
  'unknown_refund_amount',
  'conflicting_notification',
  'refused_notification',
  'gateway_amount_differs',
  'gateway_status_differs',
  'notification_missing',
  'not_in_gateway_list',
  'payout_does_not_add_up',
  'settlement_amount_differs',
] as const;
export type DiscrepancyKind = (typeof DISCREPANCY_KINDS)[number];

/** Kinds that can be the sign of an event still on its way: they wait LEDGER_GRACE_SECONDS. */
export const GRACE_KINDS: readonly DiscrepancyKind[] = ['over_cancel', 'remaining_mismatch'];

export interface Discrepancy {
  id: string;
  kind: DiscrepancyKind;
  details: Record<string, string | number | null>;
  eventIds: string[];
  openedAt: string;
  resolvedAt: string | null;
  /** The operator, or `ledger` when the condition stopped holding. */
  resolvedBy: string | null;
  note: string | null;
}

export interface Payment {
  pgCno: string;
  amount: number | null;
  /** Its cancels took all of it: the order no longer holds this payment's money. */
  cancelled: boolean;
  /** The gateway's payment method code its notification carried (payMethodTypeCode, pay_type; '11', card, for a UnionPay form naming none); absent when it named none. */
  method?: string;
  eventId: string;
  at: string;
}

export interface Cancel {
  cancelPgCno: string | null;
  pgCno: string;
  amount: number | null;
  /** What the order has left after this cancel, in the record's own figures. */
  remainingAfter: number;
  eventId: string;
  at: string;
}

export interface Deposit {
  pgCno: string;
  amount: number | null;
  cancelled: boolean;
  /** Only on a cancelled deposit: the time of the first event 31 that cancelled it (the day's money books it then). */
  cancelledAt?: string;
  eventId: string;
  at: string;
}

/** An event 51: a refund the bank could not pay out, at its own time (never in the order's figures). */
export interface RefundFailed {
  pgCno: string;
  amount: number | null;
  eventId: string;
  at: string;
}

export interface Escrow {
  pgCno: string;
  statusCode: string | null;
  eventId: string;
  at: string;
}

export interface CancellationRequested {
  shopTransactionId: string;
  pgCno: string;
  state: string;
}

export interface Expected {
  amount: number;
  currency: string;
  method: ExpectationMethod;
  source: 'expectation' | 'wallet-a';
  expiresAt: string | null;
  /** When this service stored it (the PUT, or the wallet-a trade's success); absent in records written before it was kept. */
  setAt?: string;
}

export interface OrderRecord {
  mallId: string;
  shopOrderNo: string;
  status: OrderStatus;
  expected: Expected | null;
  approved: number;
  cancelled: number;
  remaining: number;
  deposited: number;
  payments: Payment[];
  cancels: Cancel[];
  deposits: Deposit[];
  /** Present only when the order has an event 51. */
  refundsFailed?: RefundFailed[];
  escrow: Escrow | null;
  cancellationsRequested: CancellationRequested[];
  events: string[];
  discrepancies: Discrepancy[];
  updatedAt: string;
  /** Present (true) while every notification of the order came, signed, from this receiver's simulator: made-up money the alert ignores. */
  simulated?: true;
  /** Only with status `ledger_error`: why the ledger could not apply the order's inputs. */
  ledgerError?: LedgerError;
}

/** An input the ledger could not apply (a defect in the fold, a corrupt stored fact): its order alone stops. */
export interface LedgerError {
  error: string;
  /** When the projector met it. */
  at: string;
}
