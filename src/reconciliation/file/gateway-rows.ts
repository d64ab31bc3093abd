/**
 * The rows of the gateway's own lists as an import reads them from its merchant portal's files:
 * the transaction list (a row per payment and per cancel) and the settlement statement (a row per
 * transaction paid out). Amounts are integers in minor units (won), times ISO UTC read as KST.
 * Nothing here holds personal data: a column the mapping does not name is never read.
 */

/** What the gateway's list says a transaction is, read from its status text. */
export type GatewayStatus = 'approved' | 'cancelled' | 'partially_cancelled' | 'failed' | 'other';

export interface GatewayTransactionRow {
  /** The spreadsheet's own row number, so an answer can point at the line a person sees. */
  line: number;
  /** The payment's transaction number (PG거래번호): for a cancel row, the payment it cancels. */
  pgCno: string;
  /** The cancel's own transaction number (취소거래번호); `null` on a payment row. */
  cancelPgCno: string | null;
  kind: 'payment' | 'cancel';
  shopOrderNo: string | null;
  approvalNo: string | null;
  /** The row's amount: what was paid on a payment row, what was cancelled on a cancel row. */
  amount: number;
  /** A payment row's cancelled amount (취소금액) when the list carries it. */
  cancelledAmount: number | null;
  /** When the gateway made the transaction, ISO UTC. */
  at: string;
  status: GatewayStatus;
  /** The status as the file spells it, shown beside ours. */
  statusText: string;
  method: string | null;
}

export interface SettlementRow {
  line: number;
  pgCno: string;
  cancelPgCno: string | null;
  shopOrderNo: string | null;
  /** The transaction's amount before fees (negative for a cancel). */
  gross: number;
  fee: number;
  /** The VAT on the fee. */
  feeVat: number;
  /** What the gateway pays out for the row: gross - fee - feeVat when the statement adds up. */
  payout: number;
  /** The KST day the gateway pays it out, YYYY-MM-DD. */
  payoutDay: string;
  /** The KST day of the transaction, YYYY-MM-DD, when the statement carries it. */
  transactionDay: string | null;
}
