import { html, isolated, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';
import type { PaymentView } from '../payment-cancel';
import type { PaymentPage } from '../payment-page';
import { type Viewer, wordsOf } from './layout';
import { money } from './money';
import { methodName } from './search-results';

/** The copy button's script (assets/console/copy-button.js): the order page loads it. */
export const COPY_SCRIPT = '/console/assets/copy-button.js';
/** The Cancel form's script (assets/console/cancel-form.js): typing an amount chooses a partial cancel. */
export const CANCEL_FORM_SCRIPT = '/console/assets/cancel-form.js';

function said(t: Translator, view: PaymentView): SafeHtml {
  const s = view.said;
  if (s === null) return html`<p class="muted">${t('payment.pruned')}</p>`;
  const row = (label: string, value: SafeHtml | string | null) => html`<tr><th>${label}</th><td>${value ?? html`<span class="muted">${t('common.none')}</span>`}</td></tr>`;
  const months = s.installmentMonth === null ? null : Number(s.installmentMonth) === 0 ? t('payment.lumpSum') : t('payment.months', { n: Number(s.installmentMonth) });
  return html`<table class="facts compact">
  ${row(t('payment.method'), s.method === null ? null : methodName(t, s.method))}
  ${row(t('payment.issuer'), s.issuer === null ? null : isolated(s.issuer))}
  ${row(t('payment.approvalNo'), s.approvalNo === null ? null : html`<span class="mono">${isolated(s.approvalNo)}</span>`)}
  ${row(t('payment.installment'), months)}
  ${row(t('payment.card'), s.card === null ? null : html`<span class="mono">${isolated(s.card)}</span>`)}
  ${row(t('payment.messages'), s.messages.length === 0 ? null : html`${s.messages.map((m, i) => html`${i > 0 ? html`<br>` : ''}<span class="gateway-text">${isolated(m)}</span>`)}`)}
</table>`;
}

function requests(t: Translator, view: PaymentView, currency: string): SafeHtml {
  return html`${view.requests.map((r) => {
    const command = html`<a class="mono" href="/console/commands/${encodeURIComponent(r.shopTransactionId)}">${r.shopTransactionId}</a>`;
    const state = html`<span class="code">${r.state}</span>`;
    const line = r.confirmed ? t.rich('payment.confirmed', { command })
      : r.amount === null ? t.rich('payment.requestedFull', { command, state })
        : t.rich('payment.requested', { amount: money(t, r.amount, currency), command, state });
    return html`<p class="${r.confirmed ? 'muted' : 'pending-cancel'}" data-cancel-request="${r.confirmed ? 'confirmed' : 'requested'}">${line}</p>`;
  })}`;
}

/** The Cancel form (a GET to the confirmation page: nothing is sent before it) or the portal's pgCno to copy. */
function action(viewer: Viewer, view: PaymentView, orderPath: string, canCancel: boolean): SafeHtml {
  const t = wordsOf(viewer);
  const { pgCno } = view.payment;
  if (view.route === null || !view.served) {
    return html`<p class="muted">${view.route === null ? t('payment.portal') : t('payment.mallNotServed')}</p>
<p><code class="mono">${pgCno}</code> <button type="button" class="secondary" data-copy="${pgCno}" data-copied="${t('payment.copied')}">${t('payment.copy')}</button></p>`;
  }
  if (!canCancel || view.left <= 0) return html``;
  return html`<form method="get" action="${orderPath}/cancel" class="filters cancel-form">
  <input type="hidden" name="pgCno" value="${pgCno}">
  <label><input type="radio" name="type" value="full" checked> ${t('payment.cancelFull')}</label>
  ${view.route === 'wallet-b' ? html`<label><input type="radio" name="type" value="partial"> ${t('payment.cancelPartial')} <input name="amount" inputmode="decimal" size="12" aria-label="${t('payment.amountLabel')}"></label>` : ''}
  <button type="submit" class="danger">${t('payment.cancel')}</button>
</form>`;
}

/**
 * Where the shown payments stand among the order's, with links to the other pages and what those
 * hold (counted and summed from the ledger's record); nothing for an order whose payments fit one page.
 */
function pager(t: Translator, page: Omit<PaymentPage, 'shown'> | undefined, shownCount: number, currency: string, orderPath: string): SafeHtml {
  if (page === undefined || page.pages <= 1) return html``;
  const link = (n: number, label: string) => html`<a href="${orderPath}?payments=${n}" rel="${n < page.page ? 'prev' : 'next'}">${label}</a>`;
  const others = t.rich('payment.others', { count: page.others.count, amount: money(t, page.others.amount, currency) });
  return html`<p class="muted payment-pages" data-payment-page="${page.page}">${t('payment.showing', { first: page.first, last: page.first + shownCount - 1, total: page.total })} ${others}${page.others.unknown > 0 ? html` ${t('payment.othersUnknown', { count: page.others.unknown })}` : ''}</p>
<p class="actions">${page.page > 1 ? link(page.page - 1, t('payment.previousPage')) : ''} ${page.page < page.pages ? link(page.page + 1, t('payment.nextPage')) : ''}</p>`;
}

/** Each payment of the page: what the gateway said, what is left, the cancels requested, and what can be done. */
export function paymentSection(viewer: Viewer, views: readonly PaymentView[], currency: string, orderPath: string, canCancel: boolean, page?: Omit<PaymentPage, 'shown'>): SafeHtml {
  const t = wordsOf(viewer);
  if (views.length === 0) return html``;
  return html`<section class="card payments"><h2>${t('payment.title')}</h2>
${pager(t, page, views.length, currency, orderPath)}
${views.map((view) => html`<div class="payment" data-pg-cno="${view.payment.pgCno}">
<h3><span class="mono">${view.payment.pgCno}</span> · ${money(t, view.payment.amount, currency)} · ${t('payment.left')} <strong>${money(t, view.left, currency)}</strong></h3>
${said(t, view)}
${requests(t, view, currency)}
${action(viewer, view, orderPath, canCancel)}
</div>`)}
</section>`;
}
