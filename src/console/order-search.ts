import { orderKeyText } from '../ledger/fold/order-key';
import { ORDER_STATUSES, type OrderStatus } from '../ledger/fold/order-record';
import type { PaymentHit, SearchMatch } from '../ledger/projector/ledger-store';
import { typedText } from './typed-text';
import type { ConsoleDeps } from './console-deps';
import { kstDayEnd, kstDayStart } from './format';
import { typedAmounts } from './search-query';

/** The gateway's payMethodTypeCode values the method filter offers (a notification carries the code). */
export const PAYMENT_METHODS = ['11', '21', '22', '31', '50', '60'] as const;

/** What the Orders page's search form asked: the box and its filters, as typed. */
export interface SearchForm {
  q: string;
  method: string;
  status: string;
  /** KST days (`yyyy-mm-dd`) bounding the payment's own time, '' when open. */
  paidFrom: string;
  paidTo: string;
}

const text = typedText;
const dayOf = (value: unknown) => (kstDayStart(text(value)) !== null ? text(value) : '');

export function searchFormOf(query: Record<string, unknown>): SearchForm {
  const method = text(query.method);
  const status = text(query.status);
  return {
    q: text(query.q).slice(0, 200),
    method: (PAYMENT_METHODS as readonly string[]).includes(method) ? method : '',
    status: ORDER_STATUSES.includes(status as OrderStatus) ? status : '',
    paidFrom: dayOf(query.paid_from),
    paidTo: dayOf(query.paid_to),
  };
}

/**
 * The orders the box finds: the text as an order number, a pgCno and an approval number, and, when
 * it reads as money, as an exact amount in each currency it can be (search-query.ts), each found
 * only in orders of that currency; narrowed by method, order status and the payment's KST days.
 */
export async function searchOrders(ledger: NonNullable<ConsoleDeps['ledger']>, form: SearchForm, defaultCurrency: string, limit: number): Promise<PaymentHit[]> {
  return ledger.searchPayments({
    key: form.q,
    codes: codesOf(form.q),
    amounts: typedAmounts(form.q, defaultCurrency),
    defaultCurrency,
    ...(form.method ? { method: form.method } : {}),
    ...(form.status ? { status: form.status as OrderStatus } : {}),
    ...(form.paidFrom ? { fromMs: Date.parse(kstDayStart(form.paidFrom)!) } : {}),
    ...(form.paidTo ? { toMs: Date.parse(kstDayEnd(form.paidTo)!) } : {}),
    limit,
  });
}

/**
 * The text's digits, when it is a number written in groups or in full-width digits as a receipt or
 * a portal prints an approval number or a pgCno (`4001 0002`, `4001-0002`, `４００１０００２`).
 */
function codesOf(text: string): string[] {
  const digits = text.normalize('NFKC').replace(/[\s-]+/g, '');
  return /^\d+$/.test(digits) && digits !== text ? [digits] : [];
}

/** The distinct orders among the hits, by their key's text. */
function ordersOf(hits: readonly PaymentHit[]): string[] {
  return [...new Set(hits.map((hit) => orderKeyText(hit.order)))];
}

/** What opens an order straight away: it was found by its keys, or by an amount it paid. */
const OPENING: ReadonlySet<SearchMatch> = new Set(['shopOrderNo', 'pgCno', 'approvalNo', 'amount']);

/**
 * The one order the search opens straight away, when it found one: not when all that matched is an
 * amount it did not pay (a cancel's, a failed refund's, a declined notification's), since opening it
 * would read as "this order paid that"; the list says what it was.
 */
export function orderToOpen(hits: readonly PaymentHit[]): PaymentHit['order'] | null {
  if (ordersOf(hits).length !== 1 || !hits.some((hit) => OPENING.has(hit.matched))) return null;
  return hits[0]!.order;
}
