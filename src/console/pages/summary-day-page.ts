import { SUMMARY_METHODS } from '../../ledger/summary/payment-method';
import type { CountAmount, MoneyFigures, SummaryDay } from '../../ledger/summary/summary-days';
import { currencyOrDefault } from '../../ledger/fold/order-currency';
import type { OrderStatus } from '../../ledger/fold/order-record';
import type { DayOrderLine } from '../../ledger/summary/day-close';
import { html, isolated, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';
import { exportForm } from './export-form';
import { layout, type Viewer, wordsOf } from './layout';
import { money } from './money';
import { orderHref, orderStatusBadge, simulatedMark } from './order-status-badge';
import { summaryDayHref } from './summary-month-page';
import { dayCloseBar, type DayCloseState } from './day-close-bar';
import { adjustmentRows, settlementRows } from './day-extra-rows';
import { payoutDifferencesSection } from './payout-differences-section';
import type { PayoutDifference } from '../../reconciliation/matching/payout-differences';

export interface SummaryDayView {
  day: string;
  previous: string;
  next: string;
  mallId: string;
  days: SummaryDay[];
  orders: DayOrderLine[];
  /** The list is the one the day's close kept, not the orders' records now. */
  ordersAsClosed?: boolean;
  /** How many orders the page lists at most: a full list says so. */
  limit: number;
  defaultCurrency: string;
  close: DayCloseState;
  /** The payouts of this day whose statement rows do not add up. */
  payoutDifferences?: PayoutDifference[];
  notice?: string | null;
}


/** One KST day: its figures per mall and currency, and the orders with an event on it. */
export function summaryDayPage(viewer: Viewer, view: SummaryDayView): string {
  const t = wordsOf(viewer);
  const [year, month] = view.day.split('-').map(Number) as [number, number];
  const monthLabel = t('summary.monthLabel', { year: String(year), month: String(month) });
  const monthHref = `/console/summary?${new URLSearchParams({ month: view.day.slice(0, 7), ...(view.mallId ? { mall: view.mallId } : {}) }).toString()}`;
  return layout({
    title: t('summary.day.title', { date: view.day }),
    section: 'summary',
    viewer,
    notice: view.notice ?? null,
    body: html`<h1>${t('summary.day.title', { date: view.day })}</h1>
<p class="muted">${t('summary.day.intro')}</p>
${dayCloseBar(viewer, view.close)}
<nav class="pager"><a href="${summaryDayHref(view.previous, view.mallId)}">${t('summary.day.previous')}</a> <a href="${monthHref}">${t('summary.day.back', { month: monthLabel })}</a> <a href="${summaryDayHref(view.next, view.mallId)}">${t('summary.day.next')}</a></nav>
${view.days.length === 0 ? html`<p class="muted">${t('summary.day.empty')}</p>` : view.days.map((d) => figures(t, d))}
${payoutDifferencesSection(t, view.payoutDifferences ?? [], view.defaultCurrency)}
${exportForm(viewer, 'summary', { mall: view.mallId }, { from: view.day, to: view.day })}
<h2>${t('summary.orders.title')}</h2>
${view.ordersAsClosed ? html`<p class="muted orders-as-closed">${t('summary.orders.asClosed')}</p>` : ''}
<div class="table-wrap"><table>
  <thead><tr><th>${t('orders.col.shopOrderNo')} <span class="muted">${t('orders.col.mallId')}</span></th><th>${t('orders.col.status')}</th><th class="num">${t('orders.col.approved')}</th><th class="num">${t('orders.col.cancelled')}</th><th class="num">${t('orders.col.remaining')}</th><th class="num">${t('orders.col.deposited')}</th></tr></thead>
  <tbody>${view.orders.length === 0
    ? html`<tr><td colspan="6" class="muted">${t('summary.orders.empty')}</td></tr>`
    : view.orders.map((o) => {
      const currency = currencyOrDefault(o.expected?.currency, view.defaultCurrency);
      return html`<tr><td><a class="mono order-no" href="${orderHref(o.mallId, o.shopOrderNo)}">${isolated(o.shopOrderNo)}</a>${simulatedMark(t, o)}<br><span class="muted mono">${o.mallId}</span></td><td>${orderStatusBadge(t, o.status)}</td>
    <td class="num">${money(t, o.approved, currency)}</td><td class="num">${money(t, o.cancelled, currency)}</td><td class="num">${money(t, o.remaining, currency)}</td><td class="num">${money(t, o.deposited, currency)}</td></tr>`;
    })}</tbody>
</table></div>
${view.orders.length >= view.limit ? html`<p class="muted">${t('summary.orders.more', { count: view.limit })}</p>` : ''}`,
  });
}

function figures(t: Translator, d: SummaryDay): SafeHtml {
  const line = (label: string, figure: CountAmount, className = '') => html`<tr class="${className}"><th>${label}</th><td class="num">${t('summary.count', { count: figure.count })}</td><td class="num">${money(t, figure.amount, d.currency)}</td></tr>`;
  const methods = SUMMARY_METHODS.filter((m) => d.payments.byMethod[m] !== undefined);
  const statuses = Object.entries(d.ordersByStatus) as Array<[OrderStatus, number]>;
  return html`<section class="card summary-day" data-mall="${d.mallId}" data-currency="${d.currency}">
<h3><span class="mono">${d.mallId}</span> · ${d.currency}${d.closed ? html` <span class="badge closed-mark">${t('summary.closedMark')}</span>` : ''}</h3>
<table>
  <tbody>
  ${line(t('summary.row.payments'), d.payments)}
  ${methods.map((m) => line(t('summary.row.byMethod', { method: t(`summary.method.${m}`) }), d.payments.byMethod[m]!, 'sub'))}
  ${line(t('summary.row.cancels'), d.cancels)}
  ${line(t('summary.row.deposits'), d.deposits)}
  ${line(t('summary.row.depositCancels'), d.depositCancels)}
  <tr class="net"><th>${t('summary.row.net')}</th><td></td><td class="num"><strong>${money(t, d.net, d.currency)}</strong></td></tr>
  ${adjustmentRows(t, d)}
  <tr class="muted"><th>${t('summary.row.refundsFailed')}</th><td class="num">${t('summary.count', { count: d.refundsFailed.count })}</td><td class="num">${failedAmount(t, d, d.currency)}</td></tr>
  ${simulatedLine(t, d)}
  <tr><th>${t('summary.row.discrepancies')}</th><td class="num" colspan="2">${t.number(d.discrepancies.opened)} / ${t.number(d.discrepancies.resolved)}</td></tr>
  <tr><th>${t('summary.row.status')}</th><td colspan="2">${statuses.map(([status, n]) => html`<span class="nowrap">${orderStatusBadge(t, status)} ${t.number(n)}</span> `)}</td></tr>
  ${settlementRows(t, d)}
  </tbody>
</table>
</section>`;
}

/**
 * The simulator's made-up orders' money of the day, on a line of its own, labelled as left out and
 * marked as every simulated order is: no figure above counts it, and a person who ran the
 * simulator still sees where its orders went. None: no line.
 */
function simulatedLine(t: Translator, d: SummaryDay): SafeHtml | '' {
  const s = d.simulated;
  const parts: Array<[string, CountAmount, SafeHtml]> = [
    [t('summary.row.payments'), s.payments, money(t, s.payments.amount, d.currency)],
    [t('summary.row.cancels'), s.cancels, money(t, s.cancels.amount, d.currency)],
    [t('summary.row.deposits'), s.deposits, money(t, s.deposits.amount, d.currency)],
    [t('summary.row.depositCancels'), s.depositCancels, money(t, s.depositCancels.amount, d.currency)],
    [t('summary.row.refundsFailed'), s.refundsFailed, failedAmount(t, s, d.currency)],
  ];
  const booked = parts.filter(([, figure]) => figure.count > 0);
  if (booked.length === 0) return '';
  return html`<tr class="simulated-money"><th>${t('summary.row.simulated')}${simulatedMark(t, { simulated: true })}</th><td colspan="2">${booked.map(([label, figure, amount]) =>
    html`<span class="nowrap">${label} ${t('summary.count', { count: figure.count })} ${amount}</span> · `)}<span class="nowrap">${t('summary.row.net')} ${money(t, s.net, d.currency)}</span></td></tr>`;
}

/** A failed refund (51) states no amount: one that follows no refund awaiting its payout is shown as unknown, never as 0. */
function failedAmount(t: Translator, figures: MoneyFigures, currency: string): SafeHtml {
  const { count, amount, unknownCount } = figures.refundsFailed;
  if (unknownCount === 0) return money(t, amount, currency);
  if (unknownCount === count) return html`<span class="unknown-amount">${t('summary.amountUnknown')}</span>`;
  return html`<span class="unknown-amount">${t('summary.amountPartlyUnknown', { amount: t.money(amount, currency), count: unknownCount })}</span>`;
}
