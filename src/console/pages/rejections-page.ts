import type { RejectionLine, RejectionRow } from '../../store/store';
import { refusalReason, refusalReasons } from './refusal-reason';
import type { BodyView } from '../body-view';
import { html } from '../html';
import type { Translator } from '../i18n/translator';
import { bodySection } from './body-section';
import { actionButton, layout, type Viewer, wordsOf } from './layout';
import { when } from './when';

function outcome(t: Translator, row: Pick<RejectionRow, 'reprocessedEventId'>) {
  return row.reprocessedEventId
    ? html`<a href="/console/events/${encodeURIComponent(row.reprocessedEventId)}" class="badge delivered">${t('rejections.reprocessedBadge')}</a>`
    : html`<span class="badge dead">${t('rejections.rejectedBadge')}</span>`;
}

/** Why the receiver refused it: the validation's own words, shown as the log and the CLI print them. */
/** A stored reason (or list of them) in the page's words (refusal-reason.ts). */
const reasonText = (t: Translator, reason: string) => refusalReasons(t, reason);

export function rejectionsPage(viewer: Viewer, rows: RejectionLine[]): string {
  const t = wordsOf(viewer);
  return layout({
    title: t('rejections.title'),
    section: 'rejections',
    viewer,
    body: html`<h1>${t('rejections.title')}</h1>
<p class="muted">${t('rejections.intro')}</p>
<table>
  <thead><tr><th>${t('rejections.col.id')}</th><th>${t('rejections.col.received')}</th><th>${t('rejections.col.from')}</th><th>${t('rejections.col.http')}</th><th>${t('rejections.col.reason')}</th><th>${t('rejections.col.state')}</th></tr></thead>
  <tbody>${rows.length === 0
    ? html`<tr><td colspan="6" class="muted">${t('rejections.none')}</td></tr>`
    : rows.map((row) => html`<tr><td><a href="/console/rejections/${row.id}">${row.id}</a></td><td>${when(t, row.receivedAt)}</td>
    <td class="mono">${row.sourceIp}</td><td>${row.httpStatus}</td><td>${reasonText(t, row.reason)}</td><td>${outcome(t, row)}</td></tr>`)}</tbody>
</table>`,
  });
}

export function rejectionPage(viewer: Viewer, row: RejectionRow, body: BodyView, reasons: string[] | null, notice: string | null): string {
  const t = wordsOf(viewer);
  return layout({
    title: t('rejection.title', { id: row.id }),
    section: 'rejections',
    viewer,
    notice,
    body: html`<h1>${t('rejection.title', { id: row.id })}</h1>
<div class="actions">${outcome(t, row)} ${row.reprocessedEventId ? '' : actionButton(viewer, `/console/rejections/${row.id}/reprocess`, t('rejection.reprocess'))}
  <span class="muted">${row.reprocessedEventId ? '' : t('rejection.reprocessHint')}</span></div>
${reasons ? html`<div class="error" role="alert"><strong>${t('rejection.stillRejected')}</strong><ul>${reasons.map((r) => html`<li>${refusalReason(t, r)}</li>`)}</ul></div>` : ''}
<section class="card"><table class="facts"><tbody>
  <tr><th>${t('rejection.row.reason')}</th><td>${reasonText(t, row.reason)}</td></tr>
  <tr><th>${t('rejection.row.http')}</th><td>${row.httpStatus}</td></tr>
  <tr><th>${t('rejection.row.received')}</th><td>${t.time(row.receivedAt)}</td></tr>
  <tr><th>${t('rejection.row.from')}</th><td class="mono">${row.sourceIp}</td></tr>
  ${row.reprocessedAt ? html`<tr><th>${t('rejection.row.reprocessed')}</th><td>${t.time(row.reprocessedAt)}</td></tr>` : ''}
</tbody></table></section>
${bodySection(t, t('body.rawHeading'), body, row.contentType)}`,
  });
}
