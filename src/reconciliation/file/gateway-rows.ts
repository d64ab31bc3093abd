import type { SettledTransaction } from '../../ledger/fold/ledger-facts';

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

/** A settlement statement's row as read: what the ledger keeps of it (`SettledTransaction`), and the order number the file names. */
export interface SettlementRow extends SettledTransaction {
  shopOrderNo: string | null;
}

/** Which of the gateway's lists a file is. */
export type GatewayListKind = 'transactions' | 'settlement';

/** Which header a row field is read from: the file's header text, as it stands after trimming. */
export type ColumnMapping = Partial<Record<string, string>>;

/** Why a file was refused whole, or a row's reason to be skipped, with where a person finds it. */
export interface FileProblem {
  /** A stable code (`encoding`, `missing_column`, `duplicate_row`, `too_large`, `formula`, …). */
  code: string;
  /** The spreadsheet row, when the problem is one row's. */
  line: number | null;
  /** The column's header text or cell reference, when one cell is the problem. */
  column: string | null;
  message: string;
}

/** A file read whole, or refused with every reason found (nothing of a refused file is imported). */
export type ReadResult<Row> =
  | {
      ok: true;
      kind: GatewayListKind;
      rows: Row[];
      /** The first and last KST day of the rows' transactions (YYYY-MM-DD). */
      firstDay: string;
      lastDay: string;
      /** The mapping the rows were read with (the built-in one, or the one given). */
      mapping: ColumnMapping;
      /** Rows deliberately passed over, e.g. a totals row. */
      skipped: FileProblem[];
    }
  | { ok: false; problems: FileProblem[] };
