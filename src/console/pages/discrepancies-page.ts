import { currencyOrDefault } from '../../ledger/fold/order-currency';
import type { ListedDiscrepancy } from '../../ledger/projector/ledger-store';
import { html, isolated } from '../html';
import type { Translator } from '../i18n/translator';
import { exportForm } from './export-form';
import { layout, type Viewer, wordsOf } from './layout';
import { kindLabel, orderHref, simulatedMark } from './order-status-badge';
import { discrepancyDetails, resolveForm } from './resolve-form';
import { resolutionText } from './resolution-text';
import { when } from './when';

export interface DiscrepanciesView {
  /** A page of the open ones, and how many are open in all. */
  open: ListedDiscrepancy[];
  openCount: number;
  /** A page of the resolved ones (the open ones are listed once, above), in the order they opened. */
  resolved: ListedDiscrepancy[];
  /** Cursors: the next page of each list, and the page each list is on now (kept when the other pages). */
  openNext: string | null;
  resolvedNext: string | null;
  openAfter: string | null;
  resolvedAfter: string | null;
  /** The currency of each listed discrepancy's order's expectation, by discrepancy id, as the lists read it; none: the mall's default. */
  currencies: Readonly<Record<string, string>>;
  /** The ids of the listed discrepancies whose order the simulator made up: marked as every simulated order is. */
  simulated?: ReadonlySet<string>;
  defaultCurrency: string;
}

function rows(viewer: Viewer, view: DiscrepanciesView, list: ListedDiscrepancy[], empty: string) {
  const t = wordsOf(viewer);
  if (list.length === 0) return html`<tr><td colspan="5" class="muted">${empty}</td></tr>`;
  return list.map((d) => html`<tr data-discrepancy="${d.id}"><td>${when(t, d.openedAt)}</td><td>${kindLabel(t, d.kind, { line: true, order: d })}</td>
    <td><a class="mono order-no" href="${orderHref(d.mallId, d.shopOrderNo)}">${isolated(d.shopOrderNo)}</a>${simulatedMark(t, { simulated: view.simulated?.has(d.id) === true || undefined })} <span class="muted mono">${d.mallId}</span></td>
    <td>${discrepancyDetails(t, d, currencyOrDefault(view.currencies[d.id], view.defaultCurrency))}</td>
    <td>${d.resolvedAt ? resolutionCell(t, d) : openCell(viewer, d)}</td></tr>`);
}

/** An open one: its Resolve form where the viewer may resolve it, else the badge saying it is open. */
function openCell(viewer: Viewer, d: ListedDiscrepancy) {
  const form = resolveForm(viewer, d, 'list');
  return form.text ? form : html`<span class="badge dead">${wordsOf(viewer)('discrepancies.openBadge')}</span>`;
}

function resolutionCell(t: Translator, d: ListedDiscrepancy) {
  const { by, note } = resolutionText(t, d);
  return html`${t.rich('discrepancies.resolution', { time: t.time(d.resolvedAt), by })}${note ? html`: ${note}` : ''}`;
}

/** The page's URL with each list on the page given. */
function pageHref(openAfter: string | null, resolvedAfter: string | null): string {
  const params = new URLSearchParams();
  if (openAfter) params.set('open_after', openAfter);
  if (resolvedAfter) params.set('resolved_after', resolvedAfter);
  const query = params.toString();
  return `/console/discrepancies${query ? `?${query}` : ''}`;
}

/** Open ones first, each once with its Resolve; then the resolved ones with who and why. */
export function discrepanciesPage(viewer: Viewer, view: DiscrepanciesView, notice: string | null): string {
  const t = wordsOf(viewer);
  const head = html`<thead><tr><th>${t('discrepancies.col.opened')}</th><th>${t('discrepancies.col.kind')}</th><th>${t('discrepancies.col.order')}</th><th>${t('discrepancies.col.details')}</th><th class="resolution">${t('discrepancies.col.resolution')}</th></tr></thead>`;
  const openMore = view.openNext ? html`<p><a href="${pageHref(view.openNext, view.resolvedAfter)}">${t('discrepancies.nextOpen')}</a></p>` : '';
  const resolvedMore = view.resolvedNext ? html`<p><a href="${pageHref(view.openAfter, view.resolvedNext)}">${t('discrepancies.nextResolved')}</a></p>` : '';
  return layout({
    title: t('discrepancies.title'),
    section: 'discrepancies',
    viewer,
    notice,
    body: html`<h1>${t('discrepancies.title')}</h1>
<p class="muted">${t('discrepancies.intro')} <a href="/console/playbooks">${t('discrepancies.playbooks')}</a></p>
${exportForm(viewer, 'discrepancies', {}, { from: '', to: '' })}
<section class="card"><h2>${t('discrepancies.open', { count: view.openCount })}</h2>
<table>${head}<tbody>${rows(viewer, view, view.open, t('discrepancies.noneOpen'))}</tbody></table>${openMore}</section>
<section class="card"><h2>${t('discrepancies.resolvedHeading')}</h2>
<table>${head}<tbody>${rows(viewer, view, view.resolved, t('discrepancies.noneResolved'))}</tbody></table>${resolvedMore}</section>`,
  });
}
