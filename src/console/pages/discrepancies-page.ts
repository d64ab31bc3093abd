import type { ListedDiscrepancy } from '../../store/ledger-store';
import { kstTime } from '../format';
import { html } from '../html';
import { layout, type Viewer } from './layout';
import { orderHref } from './order-status-badge';
import { discrepancyDetails, resolveForm } from './resolve-form';

function rows(viewer: Viewer, list: ListedDiscrepancy[], empty: string) {
  if (list.length === 0) return html`<tr><td colspan="6" class="muted">${empty}</td></tr>`;
  return list.map((d) => html`<tr><td class="nowrap">${kstTime(d.openedAt)}</td><td>${d.kind}</td>
    <td><a class="mono" href="${orderHref(d.mallId, d.shopOrderNo)}">${d.shopOrderNo}</a> <span class="muted mono">${d.mallId}</span></td>
    <td>${discrepancyDetails(d, null)}</td>
    <td>${d.resolvedAt ? html`${kstTime(d.resolvedAt)} by ${d.resolvedBy ?? ''}${d.note ? html`: ${d.note}` : ''}` : html`<span class="badge dead">open</span>`}</td>
    <td>${resolveForm(viewer, d, 'list')}</td></tr>`);
}

/** Open ones first (SPEC 7.4), each with its Resolve; then the resolved ones, with who and why. */
export function discrepanciesPage(viewer: Viewer, open: ListedDiscrepancy[], resolved: ListedDiscrepancy[], notice: string | null): string {
  const head = html`<thead><tr><th>opened</th><th>kind</th><th>order</th><th>details (amounts in minor units)</th><th>resolution</th><th></th></tr></thead>`;
  return layout({
    title: 'Discrepancies',
    section: 'discrepancies',
    viewer,
    notice,
    body: html`<h1>Discrepancies</h1>
<p class="muted">Where the gateway's notifications and the shop's expectation disagree: a changed amount, a double payment, a cancel that leaves another remainder, a refund that could not be paid out. Resolve one once it has been dealt with; the note is audited under your name.</p>
<section class="card"><h2>Open (${open.length})</h2>
<table>${head}<tbody>${rows(viewer, open, 'No open discrepancies.')}</tbody></table></section>
<section class="card"><h2>Resolved</h2>
<table>${head}<tbody>${rows(viewer, resolved, 'None resolved yet.')}</tbody></table></section>`,
  });
}
