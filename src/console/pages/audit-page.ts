import type { AuditRow } from '../../store/store';
import { kstTime } from '../format';
import { html } from '../html';
import { layout, type Viewer } from './layout';

export function auditPage(viewer: Viewer, rows: AuditRow[]): string {
  return layout({
    title: 'Audit',
    section: 'audit',
    viewer,
    body: html`<h1>Audit</h1>
<p class="muted">Every sign-in and every change made in the console, newest first (also written to the log as "console audit").</p>
<table>
  <thead><tr><th>when</th><th>who</th><th>what</th><th>subject</th><th>detail</th></tr></thead>
  <tbody>${rows.map((row) => html`<tr><td class="nowrap">${kstTime(row.at)}</td><td>${row.actor}</td><td>${row.action}</td>
    <td class="mono">${row.subject ?? ''}</td><td>${row.detail ?? ''}</td></tr>`)}</tbody>
</table>`,
  });
}
