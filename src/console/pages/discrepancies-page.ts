import type { ListedDiscrepancy } from '../../store/ledger-store';
import { kstTime } from '../format';
import { html, isolated } from '../html';
import { layout, type Viewer } from './layout';
import { orderHref } from './order-status-badge';
import { discrepancyDetails, resolveForm } from './resolve-form';

function rows(viewer: Viewer, list: ListedDiscrepancy[], empty: string) {
  if (list.length === 0) return html`<tr><td colspan="6" class="muted">${empty}</td></tr>`;
  return list.map((d) => html`<tr data-discrepancy="${d.id}"><td class="nowrap">${kstTime(d.openedAt)}</td><td>${d.kind}</td>
    <td><a class="mono" href="${orderHref(d.mallId, d.shopOrderNo)}">${isolated(d.shopOrderNo)}</a> <span class="muted mono">${d.mallId}</span></td>
    <td>${isolated(discrepancyDetails(d, null))}</td>
    <td>${d.resolvedAt ? html`${kstTime(d.resolvedAt)} by ${isolated(d.resolvedBy)}${d.note ? html`: ${isolated(d.note)}` : ''}` : html`<span class="badge dead">open</span>`}</td>
    <td>${resolveForm(viewer, d, 'list')}</td></tr>`);
}

export interface DiscrepanciesView {
  /** A page of the open ones, and how many are open in all. */
  open: ListedDiscrepancy[];
  openCount: number;
  /** A page of all of them, resolved and open, in the order they opened. */
  all: ListedDiscrepancy[];
  /** Cursors: the next page of each list, and the page each list is on now (kept when the other pages). */
  openNext: string | null;
  allNext: string | null;
  openAfter: string | null;
  allAfter: string | null;
}

/** The page's URL with each list on the page given. */
function pageHref(openAfter: string | null, allAfter: string | null): string {
  const params = new URLSearchParams();
  if (openAfter) params.set('open_after', openAfter);
  if (allAfter) params.set('all_after', allAfter);
  const query = params.toString();
  return `/console/discrepancies${query ? `?${query}` : ''}`;
}

/** Open ones first (SPEC 7.4), each with its Resolve; then all of them, the resolved with who and why. */
export function discrepanciesPage(viewer: Viewer, view: DiscrepanciesView, notice: string | null): string {
  const head = html`<thead><tr><th>opened</th><th>kind</th><th>order</th><th>details (amounts in minor units)</th><th>resolution</th><th></th></tr></thead>`;
  const openMore = view.openNext ? html`<p><a href="${pageHref(view.openNext, view.allAfter)}">Next page of open discrepancies</a></p>` : '';
  const allMore = view.allNext ? html`<p><a href="${pageHref(view.openAfter, view.allNext)}">Next page of all discrepancies</a></p>` : '';
  return layout({
    title: 'Discrepancies',
    section: 'discrepancies',
    viewer,
    notice,
    body: html`<h1>Discrepancies</h1>
<p class="muted">Where the gateway's notifications and the shop's expectation disagree: a changed amount, a double payment, a cancel that leaves another remainder, a refund that could not be paid out. Resolve one once it has been dealt with; the note is audited under your name.</p>
<section class="card"><h2>Open (${view.openCount})</h2>
<table>${head}<tbody>${rows(viewer, view.open, 'No open discrepancies.')}</tbody></table>${openMore}</section>
<section class="card"><h2>All, as they opened</h2>
<table>${head}<tbody>${rows(viewer, view.all, 'None yet.')}</tbody></table>${allMore}</section>`,
  });
}
