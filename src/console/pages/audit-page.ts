import type { AuditRow } from '../../store/store';
import { kstTime } from '../format';
import { html, isolated } from '../html';
import { layout, type Viewer } from './layout';

/** The Audit page's filter as the operator typed it. */
export interface AuditFilterForm {
  operator: string;
  action: string;
  from: string;
  to: string;
}

export interface AuditView {
  form: AuditFilterForm;
  rows: AuditRow[];
  /** The id the next (older) page starts below, when there is one. */
  next: number | null;
  /** This is not the first page. */
  paged: boolean;
}

function auditHref(form: AuditFilterForm, before: number | null): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(form)) if (value) params.set(key, value);
  if (before !== null) params.set('before', String(before));
  const query = params.toString();
  return `/console/audit${query ? `?${query}` : ''}`;
}

export function auditPage(viewer: Viewer, view: AuditView): string {
  const { form, rows } = view;
  const filtered = Object.values(form).some(Boolean);
  return layout({
    title: 'Audit',
    section: 'audit',
    viewer,
    body: html`<h1>Audit</h1>
<p class="muted">Every sign-in and every change made in the console, newest first (also written to the log as "console audit").</p>
<form method="get" action="/console/audit" class="filters card" role="search">
  <label>Operator<input name="operator" value="${form.operator}" placeholder="name"></label>
  <label>Action<input name="action" value="${form.action}" placeholder="e.g. sign-in refused"></label>
  <label>From (KST)<input name="from" type="date" value="${form.from}"></label>
  <label>To (KST)<input name="to" type="date" value="${form.to}"></label>
  <button type="submit" class="primary">Apply</button>
  ${filtered ? html`<a href="/console/audit" class="button">Clear</a>` : ''}
</form>
<table>
  <thead><tr><th>when</th><th>who</th><th>what</th><th>subject</th><th>detail</th></tr></thead>
  <tbody>${rows.length === 0
    ? html`<tr><td colspan="5" class="muted">No audit rows match.</td></tr>`
    : rows.map((row) => html`<tr><td class="nowrap">${kstTime(row.at)}</td><td>${isolated(row.actor)}</td><td>${row.action}</td>
    <td class="mono">${isolated(row.subject)}</td><td>${isolated(row.detail)}</td></tr>`)}</tbody>
</table>
<nav class="pager">
  ${view.paged ? html`<a href="${auditHref(form, null)}">← Newest</a>` : ''}
  ${view.next !== null ? html`<a href="${auditHref(form, view.next)}">Older →</a>` : ''}
</nav>`,
  });
}
