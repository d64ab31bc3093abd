import type { OrderRecord, Payment } from '../ledger/fold/order-record';

/**
 * Payments an order page reads and shows in detail at a time. Each one shown is a read of its
 * notification (which may be tens of KB) and a masking of its fields: an order that holds
 * hundreds of payments would otherwise make one page read and mask all of them. The rest are
 * a page link away, and counted and summed from the ledger's record, which needs no read.
 */
export const PAYMENTS_PER_PAGE = 30;

/** One page of an order's payments, and what the other pages hold. */
export interface PaymentPage {
  /** The payments this page shows in detail, in the record's order. */
  shown: Payment[];
  /** 1-based; a page past the last is the last. */
  page: number;
  pages: number;
  /** The position of the first payment shown (1-based; 0 when there is none). */
  first: number;
  total: number;
  /** The payments on the other pages, counted and summed (minor units) from the record; `unknown` of them have no amount. */
  others: { count: number; amount: number; unknown: number };
}

/** `?payments=` as a link carries it: a page number; anything else is the first page. */
export function paymentPageNumber(value: unknown): number {
  return typeof value === 'string' && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}

/** The payments of `order` that page `asked` shows, and the count and sum of the others. */
export function paymentPage(order: Pick<OrderRecord, 'payments'>, asked: number, perPage = PAYMENTS_PER_PAGE): PaymentPage {
  const total = order.payments.length;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const page = Math.min(Math.max(1, asked), pages);
  const start = (page - 1) * perPage;
  const shown = order.payments.slice(start, start + perPage);
  const others = [...order.payments.slice(0, start), ...order.payments.slice(start + perPage)];
  return {
    shown, page, pages, first: shown.length === 0 ? 0 : start + 1, total,
    others: {
      count: others.length,
      amount: others.reduce((sum, p) => sum + (p.amount ?? 0), 0),
      unknown: others.filter((p) => p.amount === null).length,
    },
  };
}
