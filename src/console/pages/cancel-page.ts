import { html, isolated } from '../html';
import type { OrderRecord } from '../../ledger/fold/order-record';
import type { PaymentView } from '../payment-cancel';
import { csrfField, layout, type Viewer, wordsOf } from './layout';
import { money } from './money';
import { orderHref } from './order-status-badge';

export interface CancelConfirmation {
  order: OrderRecord;
  view: PaymentView;
  currency: string;
  /** Minor units; what is cancelled (a full cancel: all that is left). */
  amount: number;
  type: 'full' | 'partial';
  /** The command's id, fixed here: a second press of this page's button is the same command, not a second cancel. */
  shopTransactionId: string;
}

/** Nothing is sent before this page's button: it says how much, what is left after, and how it goes to the gateway. */
export function cancelConfirmPage(viewer: Viewer, c: CancelConfirmation): string {
  const t = wordsOf(viewer);
  const back = orderHref(c.order.mallId, c.order.shopOrderNo);
  const amount = money(t, c.amount, c.currency);
  const kind = c.view.route === 'van' ? t('cancel.kind.van') : c.type === 'full' ? t('cancel.kind.full') : t('cancel.kind.partial');
  return layout({
    title: t('cancel.title'),
    section: 'orders',
    viewer,
    body: html`<p class="kicker">${t('order.kicker', { mallId: c.order.mallId })}</p>
<h1>${t('cancel.title')}</h1>
<section class="card narrow confirm-cancel">
<p class="figure">${t.rich('cancel.question', { amount, pgCno: html`<span class="mono">${c.view.payment.pgCno}</span>`, shopOrderNo: html`<span class="mono">${isolated(c.order.shopOrderNo)}</span>` })}</p>
<p>${t.rich('cancel.after', { amount: html`<strong>${money(t, c.view.left - c.amount, c.currency)}</strong>` })}</p>
<p class="muted">${kind}</p>
<p class="muted">${t.rich('cancel.how', { command: html`<span class="mono">${c.shopTransactionId}</span>` })}</p>
<form method="post" action="${back}/cancel" class="inline">${csrfField(viewer)}
  <input type="hidden" name="pgCno" value="${c.view.payment.pgCno}">
  <input type="hidden" name="type" value="${c.type}">
  <input type="hidden" name="amount" value="${String(c.amount)}">
  <input type="hidden" name="shopTransactionId" value="${c.shopTransactionId}">
  <button type="submit" class="danger">${t('cancel.button', { amount: t.money(c.amount, c.currency) })}</button>
</form>
<a class="button" href="${back}">${t('cancel.back')}</a>
</section>`,
  });
}

/** A cancel refused (too much, not a payment this service cancels, a bad amount): why, and the way back. */
export function cancelRefusedPage(viewer: Viewer, order: OrderRecord, message: string): string {
  const t = wordsOf(viewer);
  return layout({
    title: t('cancel.title'),
    section: 'orders',
    viewer,
    body: html`<h1>${t('cancel.title')}</h1><p class="error" role="alert">${message}</p><p><a href="${orderHref(order.mallId, order.shopOrderNo)}">${t('cancel.back')}</a></p>`,
  });
}
