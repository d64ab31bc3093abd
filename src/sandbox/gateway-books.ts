/**
 * What the sandbox's gateway made, kept apart from what it notified: the record its merchant portal
 * lists as the transaction list and the settlement statement. A notification the sandbox drops,
 * garbles or alters on purpose (the `notify` scenarios) leaves this record as it was, and a forged
 * notification never enters it: that is the difference a reconciliation has to find.
 */
export interface BookedTransaction {
  kind: 'payment' | 'cancel';
  mallId: string;
  /** The payment's pgCno; for a cancel, the payment it cancels. */
  pgCno: string;
  cancelPgCno: string | null;
  shopOrderNo: string;
  approvalNo: string | null;
  /** Positive: what was paid, or what the cancel gave back. */
  amount: number;
  /** What the payment had left after the cancel; `null` on a payment. */
  remainingAfter: number | null;
  method: string;
  at: string;
}

/** How the portal names a payment method in its lists' 결제수단 column. */
export const PORTAL_METHOD = { wallet: '간편결제', card: '신용카드' } as const;

export interface GatewayBooks {
  record(entry: Omit<BookedTransaction, 'at'>, at?: Date): BookedTransaction;
  /** The mall's transactions made from `from` (inclusive) to `to` (exclusive), ISO times, in order. */
  between(mallId: string, from: string, to: string): BookedTransaction[];
}

/** A sandbox left running for days keeps only the recent past, as its timeline does. */
const MAX_ENTRIES = 100_000;

export function createGatewayBooks(): GatewayBooks {
  const list: BookedTransaction[] = [];
  return {
    record(entry, at = new Date()) {
      const booked = { ...entry, at: at.toISOString() };
      list.push(booked);
      if (list.length > MAX_ENTRIES) list.splice(0, list.length - MAX_ENTRIES);
      return booked;
    },
    between: (mallId, from, to) => list.filter((entry) => entry.mallId === mallId && entry.at >= from && entry.at < to),
  };
}
