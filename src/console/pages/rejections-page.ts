import type { RejectionRow } from '../../store/store';
import type { BodyView } from '../body-view';
import { kstTime } from '../format';
import { html, isolated } from '../html';
import { bodySection } from './body-section';
import { actionButton, layout, type Viewer } from './layout';

function outcome(row: RejectionRow) {
  return row.reprocessedEventId
    ? html`<a href="/console/events/${encodeURIComponent(row.reprocessedEventId)}" class="badge delivered">reprocessed</a>`
    : html`<span class="badge dead">rejected</span>`;
}

export function rejectionsPage(viewer: Viewer, rows: RejectionRow[]): string {
  return layout({
    title: 'Rejections',
    section: 'rejections',
    viewer,
    body: html`<h1>Rejections</h1>
<p class="muted">Bodies the receiver refused (5001, 413, 415). Fix the configuration (MALL_IDS, GATEWAY_ENV, EXTRA_ALLOWED_IPS), restart, then reprocess.</p>
<table>
  <thead><tr><th>id</th><th>received</th><th>from</th><th>HTTP</th><th>reason</th><th>state</th></tr></thead>
  <tbody>${rows.length === 0
    ? html`<tr><td colspan="6" class="muted">No rejections.</td></tr>`
    : rows.map((row) => html`<tr><td><a href="/console/rejections/${row.id}">${row.id}</a></td><td class="nowrap">${kstTime(row.receivedAt)}</td>
    <td class="mono">${row.sourceIp}</td><td>${row.httpStatus}</td><td>${isolated(row.reason)}</td><td>${outcome(row)}</td></tr>`)}</tbody>
</table>`,
  });
}

export function rejectionPage(viewer: Viewer, row: RejectionRow, body: BodyView, reasons: string[] | null, notice: string | null): string {
  return layout({
    title: `Rejection ${row.id}`,
    section: 'rejections',
    viewer,
    notice,
    body: html`<h1>Rejection ${row.id}</h1>
<div class="actions">${outcome(row)} ${row.reprocessedEventId ? '' : actionButton(viewer, `/console/rejections/${row.id}/reprocess`, 'Reprocess')}
  <span class="muted">${row.reprocessedEventId ? '' : 'validates the body again under the running configuration; stores and forwards it if it passes'}</span></div>
${reasons ? html`<div class="error" role="alert"><strong>Still rejected under the running configuration:</strong><ul>${reasons.map((r) => html`<li>${isolated(r)}</li>`)}</ul></div>` : ''}
<section class="card"><table class="facts"><tbody>
  <tr><th>reason</th><td>${isolated(row.reason)}</td></tr>
  <tr><th>HTTP status</th><td>${row.httpStatus}</td></tr>
  <tr><th>received</th><td>${kstTime(row.receivedAt)}</td></tr>
  <tr><th>from</th><td class="mono">${row.sourceIp}</td></tr>
  ${row.reprocessedAt ? html`<tr><th>reprocessed</th><td>${kstTime(row.reprocessedAt)}</td></tr>` : ''}
</tbody></table></section>
${bodySection('Raw body as received', body, row.contentType)}`,
  });
}
