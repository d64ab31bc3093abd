import { GATEWAY_LIST_KINDS } from '../../ledger/fold/gateway-list-conditions';
import type { DiscrepancyKind } from '../../ledger/fold/order-record';
import type { DaySettlement } from '../../ledger/summary/summary-days';
import type { ReconciliationDay, Tally } from '../../reconciliation/import/reconciliation-store';
import { html, isolated, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';
import { actionButton, layout, type Viewer, wordsOf } from './layout';
import { money } from './money';
import { kindLabel, orderHref } from './order-status-badge';
import { discrepancyDetails, resolveForm } from './resolve-form';
import { resolutionText } from './resolution-text';
import { when } from './when';

/** What the settlement statement says of the day's transactions of one mall: what it charged and pays out. */
export interface ReconcilePayout extends DaySettlement {
  mallId: string;
}

export interface ReconcileDayView {
  day: string;
  previous: string;
  next: string;
  mallId: string;
  /** Per mall: the files covering the day, the rows matched, the differences. */
  malls: ReconciliationDay[];
  payouts: ReconcilePayout[];
  close: { closedAt: string; closedBy: string } | null;
}


const reconcileHref = (day: string, mallId: string) => `/console/reconcile?${new URLSearchParams({ day, ...(mallId ? { mall: mallId } : {}) }).toString()}`;

/**
 * 대사, by KST day: the gateway's files that cover it, how many of its rows and how much money
 * matched what the receiver accepted, each difference with what to do about it, the payouts, and
 * whether the day is closed. Everything a file or a notification said is shown as text.
 */
export function reconcilePage(viewer: Viewer, view: ReconcileDayView, notice: string | null = null): string {
  const t = wordsOf(viewer);
  const upload = `/console/reconcile/upload?${new URLSearchParams({ day: view.day, ...(view.mallId ? { mall: view.mallId } : {}) }).toString()}`;
  return layout({
    title: t('reconcile.title', { date: view.day }),
    section: 'reconcile',
    viewer,
    notice,
    body: html`<h1>${t('reconcile.title', { date: view.day })}</h1>
<p class="muted">${t('reconcile.intro')}</p>
<nav class="pager"><a href="${reconcileHref(view.previous, view.mallId)}">${t('summary.day.previous')}</a> <a href="${`/console/summary/${view.day}${view.mallId ? `?mall=${encodeURIComponent(view.mallId)}` : ''}`}">${t('reconcile.dayMoney')}</a> <a href="${reconcileHref(view.next, view.mallId)}">${t('summary.day.next')}</a></nav>
${closeState(viewer, view)}
${view.malls.length === 0 ? html`<section class="card muted reconcile-figures" data-listed="none">${t('reconcile.noList')}</section>` : view.malls.map((m) => mallSection(viewer, m))}
<h2>${t('reconcile.payouts')}</h2>
${payouts(t, view)}
<p><a class="button" href="${upload}">${t('reconcile.upload')}</a></p>`,
  });
}

function closeState(viewer: Viewer, view: ReconcileDayView): SafeHtml {
  const t = wordsOf(viewer);
  const target = `/console/summary/${view.day}`;
  const mall: Record<string, string> = view.mallId ? { mall: view.mallId } : {};
  if (view.close) {
    return html`<section class="card close-state closed" data-closed="true"><strong>${t('reconcile.closed', { time: t.time(view.close.closedAt) })}</strong> <span class="data">${view.close.closedBy}</span>
${actionButton(viewer, `${target}/reopen`, t('reconcile.reopen'), mall, 'secondary', 'admin')}</section>`;
  }
  return html`<section class="card close-state open" data-closed="false"><strong>${t('reconcile.open')}</strong> <span class="muted">${t('reconcile.closeHint')}</span>
${actionButton(viewer, `${target}/close`, t('reconcile.close'), mall)}</section>`;
}

const plus = (a: Tally, b: Tally): Tally => ({ count: a.count + b.count, amount: a.amount + b.amount });

function mallSection(viewer: Viewer, m: ReconciliationDay): SafeHtml {
  const t = wordsOf(viewer);
  const line = (label: string, figure: Tally, name: string, className = '') =>
    html`<tr class="${className}" data-figure="${name}"><th>${label}</th><td class="num">${t('summary.count', { count: figure.count })}</td><td class="num">${money(t, figure.amount, m.currency)}</td></tr>`;
  const counts = (kind: DiscrepancyKind) => html`<tr data-kind-count="${kind}"><th>${kindLabel(t, kind)}</th><td class="num" colspan="2">${t('reconcile.openResolved', { open: m.differences.open[kind] ?? 0, resolved: m.differences.resolved[kind] ?? 0 })}</td></tr>`;
  return html`<section class="card reconcile-figures" data-mall="${m.mallId}">
<h3><span class="mono">${m.mallId}</span> · ${m.currency}</h3>
<table><tbody>
${line(t('reconcile.row.listed'), plus(m.rows.payments, m.rows.cancels), 'listed')}
${line(t('reconcile.row.payments'), m.rows.payments, 'payments', 'sub')}
${line(t('reconcile.row.cancels'), m.rows.cancels, 'cancels', 'sub')}
${line(t('reconcile.row.matched'), plus(m.matched.payments, m.matched.cancels), 'matched')}
${GATEWAY_LIST_KINDS.map(counts)}
</tbody></table>
<h4>${t('reconcile.differences')}</h4>
${differences(viewer, m)}
<h4>${t('reconcile.files')}</h4>
${files(t, m)}
</section>`;
}

function differences(viewer: Viewer, m: ReconciliationDay): SafeHtml {
  const t = wordsOf(viewer);
  if (m.differences.listed.length === 0 && m.unplaced.length === 0) return html`<p class="muted">${t('reconcile.noDifference')}</p>`;
  return html`<div class="table-wrap"><table class="differences">
<thead><tr><th>${t('reconcile.col.kind')}</th><th>${t('orders.col.shopOrderNo')}</th><th>${t('reconcile.col.details')}</th><th>${t('reconcile.col.state')}</th></tr></thead>
<tbody>${m.differences.listed.map((d) => html`<tr data-discrepancy="${d.id}" data-kind="${d.kind}"><td>${kindLabel(t, d.kind, { line: true, order: d })}</td>
<td><a class="mono order-no" href="${orderHref(d.mallId, d.shopOrderNo)}">${isolated(d.shopOrderNo)}</a></td>
<td>${discrepancyDetails(t, d, m.currency)}</td>
<td>${d.resolvedAt ? resolved(t, d) : html`${when(t, d.openedAt)} ${resolveForm(viewer, d, 'list')}`}</td></tr>`)}${m.unplaced.map((u) => unplacedRow(t, u, m.currency))}</tbody>
</table></div>`;
}

/**
 * A row of the file in no order, shown as the notification missing it is: there is no order to
 * link and nothing to resolve by hand (the gateway's resend places it), so it says so.
 */
function unplacedRow(t: Translator, u: ReconciliationDay['unplaced'][number], currency: string): SafeHtml {
  const details = {
    pgCno: u.pgCno, ...(u.kind === 'cancel' && { cancelPgCno: u.cancelPgCno }), listedAmount: u.amount, at: u.at, line: u.line, resendPath: u.resendPath,
  };
  return html`<tr data-unplaced="${u.line}" data-kind="notification_missing"><td>${kindLabel(t, 'notification_missing', { line: true })}</td>
<td class="muted">${t('reconcile.unplaced.noOrder')}</td>
<td>${discrepancyDetails(t, { details }, currency)}</td>
<td class="muted">${t('reconcile.unplaced.state')}</td></tr>`;
}

function resolved(t: Translator, d: ReconciliationDay['differences']['listed'][number]): SafeHtml {
  const { by, note } = resolutionText(t, d);
  return html`${t.rich('discrepancies.resolution', { time: t.time(d.resolvedAt), by })}${note ? html`: ${note}` : ''}`;
}

function files(t: Translator, m: ReconciliationDay): SafeHtml {
  return html`<div class="table-wrap"><table class="files">
<thead><tr><th>${t('reconcile.col.list')}</th><th>${t('reconcile.col.file')}</th><th>${t('reconcile.col.days')}</th><th class="num">${t('reconcile.col.rows')}</th><th>${t('reconcile.col.imported')}</th></tr></thead>
<tbody>${m.files.map((f) => {
    const list = f.kind === 'settlement';
    return html`<tr class="${list || f.governing ? 'governing' : 'superseded'}"><td>${t(list ? 'reconcile.kind.settlement' : 'reconcile.kind.transactions')}</td><td class="data">${f.fileName}</td>
<td>${f.firstDay === f.lastDay ? f.firstDay : `${f.firstDay} ~ ${f.lastDay}`}${list || f.governing ? '' : html` <span class="muted">${t('reconcile.superseded')}</span>`}</td><td class="num">${list ? t.number(f.rowCount) : html`${t.number(f.rowsOfDay)} / ${t.number(f.rowCount)}`}</td><td>${when(t, f.importedAt)} <span class="data">${f.importedBy}</span></td></tr>`;
  })}</tbody>
</table></div>`;
}

function payouts(t: Translator, view: ReconcileDayView): SafeHtml {
  if (view.payouts.length === 0) return html`<p class="muted">${t('reconcile.noStatement')}</p>`;
  const m = (amount: number) => money(t, amount, 'KRW');
  return html`<div class="table-wrap"><table class="payouts">
<thead><tr><th>${t('orders.col.mallId')}</th><th class="num">${t('reconcile.col.rows')}</th><th class="num">${t('reconcile.col.gross')}</th><th class="num">${t('reconcile.col.fee')}</th><th class="num">${t('reconcile.col.feeVat')}</th><th class="num">${t('reconcile.col.payout')}</th></tr></thead>
<tbody>${view.payouts.map((p) => html`<tr data-mall="${p.mallId}"><td class="mono">${p.mallId}</td><td class="num">${t.number(p.count)}</td><td class="num">${m(p.gross)}</td><td class="num">${m(p.fee)}</td><td class="num">${m(p.feeVat)}</td><td class="num"><strong>${m(p.payout)}</strong></td></tr>`)}</tbody>
</table></div>
<p class="muted">${t('reconcile.payoutsHint')}</p>`;
}
