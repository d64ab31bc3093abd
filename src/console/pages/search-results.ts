import { orderCurrency } from '../../ledger/fold/order-currency';
import { orderKeyText } from '../../ledger/fold/order-key';
import { ORDER_STATUSES, type OrderStatus } from '../../ledger/fold/order-record';
import type { PaymentHit } from '../../ledger/projector/ledger-store';
import { html, isolated, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';
import { PAYMENT_METHODS, type SearchForm } from '../order-search';
import { money } from './money';
import { orderHref, orderStatusBadge, simulatedMark } from './order-status-badge';
import { when } from './when';

/** A payment method by the gateway's code: its name, the code small beside it (what the logs say). */
export function methodName(t: Translator, code: string | null): SafeHtml {
  if (code === null) return html`<span class="muted">${t('common.none')}</span>`;
  const known = (PAYMENT_METHODS as readonly string[]).includes(code);
  return html`${known ? t(`search.method.${code as (typeof PAYMENT_METHODS)[number]}`) : ''} <span class="code">${code}</span>`;
}

/** The search form's filters, beside the box: method, the order's status, the payment's KST days. */
export function searchFilters(t: Translator, form: SearchForm): SafeHtml {
  return html`<label>${t('search.method')}<select name="method"><option value="">${t('common.all')}</option>${PAYMENT_METHODS.map(
    (code) => html`<option value="${code}"${code === form.method ? html` selected` : ''}>${t(`search.method.${code}`)} (${code})</option>`,
  )}</select></label>
  <label>${t('search.status')}<select name="status"><option value="">${t('common.all')}</option>${ORDER_STATUSES.map(
    (s) => html`<option value="${s}"${s === form.status ? html` selected` : ''}>${t(`orderStatus.${s}`)}</option>`,
  )}</select></label>
  <label>${t('search.paidFrom')}<input name="paid_from" type="date" value="${form.paidFrom}"></label>
  <label>${t('search.paidTo')}<input name="paid_to" type="date" value="${form.paidTo}"></label>`;
}

/** The last four digits of a card, as the masked number ends (the pages never show more of it). */
const lastFour = (digits: string | null) => (digits === null ? '' : html`<span class="mono">•••• ${digits}</span>`);

/** What the box found: each order with the notification that matched, what it is (a payment, a cancel, …), and the last four digits of its card. */
export function searchResults(t: Translator, found: { form: SearchForm; hits: readonly PaymentHit[] }, defaultCurrency: string): SafeHtml {
  const { form, hits } = found;
  return html`<p class="muted">${t('search.found', { count: new Set(hits.map((hit) => orderKeyText(hit.order))).size, q: form.q })}</p>
<div class="table-wrap"><table>
  <thead><tr><th>${t('orders.col.shopOrderNo')} <span class="muted">${t('orders.col.mallId')}</span></th><th>${t('orders.col.status')}</th><th>${t('search.col.matched')}</th><th>pgCno</th><th>${t('search.col.approvalNo')}</th><th>${t('search.col.card')}</th><th class="num">${t('search.col.amount')}</th><th>${t('search.method')}</th><th>${t('search.col.at')}</th></tr></thead>
  <tbody>${hits.length === 0
    ? html`<tr><td colspan="9" class="muted">${t('search.none', { q: form.q })}</td></tr>`
    : hits.map((hit) => html`<tr><td><a class="mono order-no" href="${orderHref(hit.order.mallId, hit.order.shopOrderNo)}">${isolated(hit.order.shopOrderNo)}</a>${simulatedMark(t, hit.order)}<br><span class="muted mono">${hit.order.mallId}</span></td>
    <td>${orderStatusBadge(t, hit.order.status as OrderStatus)}</td><td>${t(`search.by.${hit.matched}`)}</td>
    <td class="mono">${hit.payment ? isolated(hit.payment.pgCno) : ''}</td><td class="mono">${hit.payment?.approvalNo ? isolated(hit.payment.approvalNo) : ''}</td><td>${lastFour(hit.payment?.cardLastFour ?? null)}</td>
    <td class="num">${hit.payment ? money(t, hit.payment.amount, orderCurrency(hit.order, defaultCurrency)) : ''}</td>
    <td>${hit.payment ? methodName(t, hit.payment.method) : ''}</td><td>${hit.payment ? when(t, hit.payment.at) : ''}</td></tr>`)}</tbody>
</table></div>`;
}
