import { orderCurrency } from '../../ledger/fold/order-currency';
import { ORDER_STATUSES, type OrderRecord, type OrderStatus } from '../../ledger/fold/order-record';
import { html, isolated } from '../html';
import { layout, type Viewer, wordsOf } from './layout';
import { exportForm } from './export-form';
import { money } from './money';
import { orderHref, orderStatusBadge, simulatedMark } from './order-status-badge';
import { when } from './when';
import type { SearchForm } from '../order-search';
import type { PaymentHit } from '../../ledger/projector/ledger-store';
import { searchFilters, searchResults } from './search-results';

export interface OrdersView {
  /** The search box's text (an order number), or '' when listing. */
  q: string;
  status: string;
  /** The date range as typed (KST days, `yyyy-mm-dd`), '' when open. */
  from: string;
  to: string;
  orders: OrderRecord[];
  /** Orders per status in the date range (all of them without one). */
  counts: Partial<Record<OrderStatus, number>>;
  /** The next page's cursor, when there is one; whether this is a later page. */
  next: string | null;
  paged: boolean;
  /** LEDGER_DEFAULT_CURRENCY: the currency of an order whose expectation names none. */
  defaultCurrency: string;
  /** The search box's form and what it found, when the box was used. */
  search?: { form: SearchForm; hits: PaymentHit[] };
}

export function ordersPage(viewer: Viewer, view: OrdersView): string {
  const t = wordsOf(viewer);
  const { q, status, orders } = view;
  const range = { ...(view.from ? { from: view.from } : {}), ...(view.to ? { to: view.to } : {}) };
  const query = (extra: Record<string, string>) => `/console/orders?${new URLSearchParams({ ...range, ...extra }).toString()}`;
  const total = Object.values(view.counts).reduce((sum, n) => sum + (n ?? 0), 0);
  const currencyOf = (order: OrderRecord) => orderCurrency(order, view.defaultCurrency);
  const empty = q ? t('orders.emptyQuery', { q }) : status ? t('orders.emptyStatus', { status: t(`orderStatus.${status as OrderStatus}`) })
    : view.from || view.to ? t('orders.emptyFiltered') : t('orders.empty');
  return layout({
    title: t('orders.title'),
    section: 'orders',
    viewer,
    body: html`<h1>${t('orders.title')}</h1>
<p class="muted">${t('orders.intro', { currency: view.defaultCurrency })}</p>
<form method="get" action="/console/orders" class="filters card order-search" role="search">
  <label class="grow">${t('orders.search')}<input name="q" type="search" value="${q}" placeholder="${t('orders.searchPlaceholder')}"></label>
  ${searchFilters(t, view.search?.form ?? { q, method: '', status: '', paidFrom: '', paidTo: '' })}
  <button type="submit">${t('orders.find')}</button>
</form>
<form method="get" action="/console/orders" class="filters card">
  ${status ? html`<input type="hidden" name="status" value="${status}">` : ''}
  <label>${t('orders.updatedFrom')}<input name="from" type="date" value="${view.from}"></label>
  <label>${t('orders.updatedTo')}<input name="to" type="date" value="${view.to}"></label>
  <button type="submit" class="primary">${t('common.apply')}</button>
  ${view.from || view.to ? html`<a href="/console/orders${status ? `?status=${status}` : ''}" class="button">${t('common.clear')}</a>` : ''}
</form>
<nav class="chips"><a href="${query({})}" class="${status || q ? '' : 'active'}">${t('common.all')} <span class="muted">${t.number(total)}</span></a>${ORDER_STATUSES.map(
      (s) => html`<a href="${query({ status: s })}" class="${s === status ? 'active' : ''}" title="${t(`orderStatus.${s}.line`)}">${t(`orderStatus.${s}`)} <span class="muted">${t.number(view.counts[s] ?? 0)}</span></a>`,
    )}</nav>
${q || view.search ? '' : exportForm(viewer, 'orders', { status }, { from: view.from, to: view.to })}
${view.search ? searchResults(t, view.search, view.defaultCurrency) : html`<div class="table-wrap"><table>
  <thead><tr><th>${t('orders.col.shopOrderNo')} <span class="muted">${t('orders.col.mallId')}</span></th><th>${t('orders.col.status')}</th><th class="num">${t('orders.col.expected')}</th><th class="num">${t('orders.col.approved')}</th><th class="num">${t('orders.col.cancelled')}</th><th class="num">${t('orders.col.remaining')}</th><th class="num">${t('orders.col.deposited')}</th><th class="num">${t('orders.col.open')}</th><th>${t('orders.col.updated')}</th></tr></thead>
  <tbody>${orders.length === 0
    ? html`<tr><td colspan="9" class="muted">${empty}</td></tr>`
    : orders.map((o) => html`<tr><td><a class="mono order-no" href="${orderHref(o.mallId, o.shopOrderNo)}">${isolated(o.shopOrderNo)}</a>${simulatedMark(t, o)}<br><span class="muted mono">${o.mallId}</span></td><td>${orderStatusBadge(t, o.status)}</td>
    <td class="num">${o.expected ? money(t, o.expected.amount, o.expected.currency) : html`<span class="muted">${t('common.none')}</span>`}</td>
    <td class="num">${money(t, o.approved, currencyOf(o))}</td><td class="num">${money(t, o.cancelled, currencyOf(o))}</td>
    <td class="num">${money(t, o.remaining, currencyOf(o))}</td><td class="num">${money(t, o.deposited, currencyOf(o))}</td>
    <td class="num">${t.number(o.discrepancies.filter((d) => d.resolvedAt === null).length)}</td><td>${when(t, o.updatedAt)}</td></tr>`)}</tbody>
</table></div>`}
<nav class="pager">
  ${view.paged ? html`<a href="${query(status ? { status } : {})}">${t('common.firstPage')}</a>` : ''}
  ${view.next ? html`<a href="${query({ ...(status ? { status } : {}), after: view.next })}">${t('common.nextPage')}</a>` : ''}
</nav>`,
  });
}
