import { ORDER_STATUSES, type OrderRecord } from '../../ledger/order-record';
import { kstTime, minorAmount } from '../format';
import { html, isolated } from '../html';
import { layout, type Viewer } from './layout';
import { orderHref, orderStatusBadge } from './order-status-badge';

export interface OrdersView {
  /** The search box's text (an order number), or '' when listing. */
  q: string;
  status: string;
  orders: OrderRecord[];
  /** The next page's cursor, when there is one. */
  next: string | null;
}

const currencyOf = (order: OrderRecord) => order.expected?.currency ?? null;

export function ordersPage(viewer: Viewer, view: OrdersView): string {
  const { q, status, orders } = view;
  const query = (extra: Record<string, string>) => `/console/orders?${new URLSearchParams({ ...(status ? { status } : {}), ...extra }).toString()}`;
  return layout({
    title: 'Orders',
    section: 'orders',
    viewer,
    body: html`<h1>Orders</h1>
<p class="muted">The payment ledger: per order, what the shop expected, what the gateway approved, cancelled and deposited, and what disagrees. Amounts are integers in the currency's minor unit.</p>
<form method="get" action="/console/orders" class="filters card" role="search">
  <label class="grow">Search<input name="q" type="search" value="${q}" placeholder="shopOrderNo"></label>
  <button type="submit">Find</button>
</form>
<nav class="chips"><a href="/console/orders" class="${status || q ? '' : 'active'}">all</a>${ORDER_STATUSES.map(
      (s) => html`<a href="/console/orders?status=${s}" class="${s === status ? 'active' : ''}">${s}</a>`,
    )}</nav>
<table>
  <thead><tr><th>shopOrderNo</th><th>mallId</th><th>status</th><th class="num">expected</th><th class="num">approved</th><th class="num">cancelled</th><th class="num">remaining</th><th class="num">deposited</th><th class="num">open discrepancies</th><th>updated</th></tr></thead>
  <tbody>${orders.length === 0
    ? html`<tr><td colspan="10" class="muted">${q ? html`No order ${q} is known.` : status ? html`No orders with status ${status}.` : 'No orders yet.'}</td></tr>`
    : orders.map((o) => html`<tr><td><a class="mono" href="${orderHref(o.mallId, o.shopOrderNo)}">${isolated(o.shopOrderNo)}</a></td><td class="mono">${o.mallId}</td><td>${orderStatusBadge(o.status)}</td>
    <td class="num">${o.expected ? minorAmount(o.expected.amount, o.expected.currency) : html`<span class="muted">none</span>`}</td>
    <td class="num">${minorAmount(o.approved, currencyOf(o))}</td><td class="num">${minorAmount(o.cancelled, currencyOf(o))}</td>
    <td class="num">${minorAmount(o.remaining, currencyOf(o))}</td><td class="num">${minorAmount(o.deposited, currencyOf(o))}</td>
    <td class="num">${o.discrepancies.filter((d) => d.resolvedAt === null).length}</td><td class="nowrap">${kstTime(o.updatedAt)}</td></tr>`)}</tbody>
</table>
${view.next ? html`<p><a href="${query({ after: view.next })}">Next page</a></p>` : ''}`,
  });
}
