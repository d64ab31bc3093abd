import type { NotiType } from '../../notifications/event-types';

/**
 * The ledger's own facts about one order: ids, amounts, codes and times, never personal data, so
 * they may be kept beyond the inbox's retention and an order can always be rebuilt from them.
 *
 * Every fact has a stable `id` (a repeated input is the same fact), `at` (when it happened: the
 * gateway's time for a notification, which decides the order the record reads them in) and
 * `recordedAt` (when this service stored it, which decides when a discrepancy opened).
 */
interface FactBase {
  id: string;
  at: string;
  recordedAt: string;
}

export const EXPECTATION_METHODS = ['card', 'vaccount', 'wallet', 'other'] as const;
export type ExpectationMethod = (typeof EXPECTATION_METHODS)[number];

/** What the shop said it would be paid: a PUT .../expectation, or a wallet-a trade that succeeded. */
export interface ExpectationFact extends FactBase {
  kind: 'expectation';
  source: 'expectation' | 'wallet-a';
  amount: number;
  currency: string;
  method: ExpectationMethod;
  expiresAt: string | null;
}

/** One accepted notification, reduced to what the ledger computes with. */
export interface NotificationFact extends FactBase {
  kind: 'notification';
  /** The normalized event's id: a redelivery has the same one. */
  id: string;
  notiType: NotiType;
  pgCno: string;
  cancelPgCno: string | null;
  /** The gateway's result; for event 51 the bank's failure code. */
  resCd: string;
  /** statusCode (for event 40 the escrow status), a gateway code. */
  statusCode: string | null;
  /** `amount` (30: else depositAmount; 50/51: else refundAmount); null when absent or unreadable. */
  amount: number | null;
  cancelAmount: number | null;
  /** What the gateway says is left of the payment after this cancel (cancelRemainAmount, else remainAmount). */
  remainAmount: number | null;
  /** Event 50: the virtual-account deposit it refunds; absent when the body names none (and in facts stored before it was kept). */
  depositPgCno?: string;
  /**
   * The gateway's payment method code (`payMethodTypeCode`; a UnionPay form's `pay_type`), as sent:
   * the day's money splits payments by it. Absent when the body names none; facts stored before it
   * was kept have it from the search rows (migration 026).
   */
  payMethod?: string;
  /** A basket payment's `productPgCno<n>`: a cancel may name one of them; absent without a basket. */
  productPgCnos?: string[];
  occurredAt: string | null;
  receivedAt: string;
  /**
   * Sent by this receiver's own simulator, proven by its mark on the raw body (the event's
   * `source.simulator`); absent on every other notification. Nothing in a body sets it. (Facts stored
   * before the mark was a signature said `simulated`, which a body could set: no rule reads that.)
   */
  simulator?: true;
}

/** A cancel (wallet-b or VAN) sent through the internal API or the console, at one of its states: requested, never counted as cancelled. */
export interface CancellationFact extends FactBase {
  kind: 'cancellation';
  shopTransactionId: string;
  pgCno: string;
  state: string;
}

/** An operator closed a discrepancy (API, console or CLI). */
export interface ResolutionFact extends FactBase {
  kind: 'resolution';
  discrepancyId: string;
  by: string;
  note: string;
}

/** The fields of a notification that move money: a redelivery that changes one of them is an alarm. */
export interface MoneyFields {
  amount: number | null;
  cancelAmount: number | null;
  remainAmount: number | null;
  resCd: string;
}

/**
 * A redelivery under a stored notification's key whose money fields or whose order differ from the
 * stored one's (kept in the conflicts table, never queued): the stored one still counts; both are
 * shown. One that names another order is a fact of both orders.
 */
export interface ConflictFact extends FactBase {
  kind: 'conflict';
  /** The stored notification's event id. */
  eventId: string;
  pgCno: string;
  notiType: string;
  stored: MoneyFields;
  redelivered: MoneyFields;
  /**
   * Only when the redelivery names another order (one pgCno approved under two orders): the order
   * each version names. Absent otherwise, so the facts stored before it was read stay as they were.
   */
  orders?: { stored: OrderKey; redelivered: OrderKey };
  /** The redelivery carried the simulator's mark (as a notification's `simulator`); absent otherwise. */
  simulator?: true;
}

/**
 * A notification refused as invalid (kept in the rejections table) whose mallId and shopOrderNo
 * could be read: the order shows it until a reprocess or a valid redelivery of it is accepted.
 * No reason text: it may quote the body, and facts outlive retention.
 */
export interface RefusalFact extends FactBase {
  kind: 'refusal';
  rejectionId: number;
  notiType: string | null;
  pgCno: string | null;
  cancelPgCno: string | null;
}

/**
 * One row of the gateway's transaction list as the ledger keeps it: the ids, amount, status and
 * time the match reads, nothing the file says about the customer.
 */
export interface ListedTransaction {
  /** The file's row number, so a person can find the row. */
  line: number;
  kind: 'payment' | 'cancel';
  pgCno: string;
  cancelPgCno: string | null;
  amount: number;
  status: 'approved' | 'cancelled' | 'partially_cancelled' | 'failed' | 'other';
  /** When the gateway made the transaction, ISO UTC. */
  at: string;
}

/**
 * What one imported transaction list says about one order: its rows for the order (none: the
 * gateway does not list the order on the days the file covers) and the KST days it covers. The
 * list imported latest for a day is the gateway's word for that day (`gateway-list-conditions.ts`).
 * `at` and `recordedAt` are the import's time.
 */
export interface GatewayListingFact extends FactBase {
  kind: 'gateway_listing';
  importId: string;
  /** The first and last KST day the file covers (YYYY-MM-DD). */
  firstDay: string;
  lastDay: string;
  /** The file lists cancels as rows of their own: a cancel notified here and not listed is then absent from it. */
  listsCancels: boolean;
  rows: ListedTransaction[];
}

/**
 * One row of the gateway's settlement statement as the ledger keeps it: the transaction it pays
 * out, its amounts and days, nothing else the file says. Amounts as the statement states them: a
 * cancel's gross, fee, VAT and payout are negative (the gateway takes the money back).
 */
export interface SettledTransaction {
  /** The file's row number, so a person can find the row. */
  line: number;
  pgCno: string;
  /** The cancel's own transaction number; `null` on a payment's row. */
  cancelPgCno: string | null;
  gross: number;
  fee: number;
  /** The VAT on the fee (0 where the statement's fee includes it). */
  feeVat: number;
  payout: number;
  /** The KST day the gateway pays the row out, YYYY-MM-DD. */
  payoutDay: string;
  /** The KST day of the transaction, when the statement carries it. */
  transactionDay: string | null;
}

/**
 * What one imported settlement statement says about one order: its rows for the order. The
 * statement imported latest that has a row for a transaction is the gateway's word on that
 * transaction (`settlement-conditions.ts`). `at` and `recordedAt` are the import's time.
 */
export interface GatewaySettlementFact extends FactBase {
  kind: 'gateway_settlement';
  importId: string;
  rows: SettledTransaction[];
}

/** What an imported file of the gateway says about an order: a transaction list's or a settlement statement's fact. */
export type GatewayFileFact = GatewayListingFact | GatewaySettlementFact;

export type InputFact = ExpectationFact | NotificationFact | CancellationFact | ConflictFact | RefusalFact | GatewayListingFact | GatewaySettlementFact;
export type LedgerFact = InputFact | ResolutionFact;

export interface OrderKey {
  mallId: string;
  shopOrderNo: string;
}
