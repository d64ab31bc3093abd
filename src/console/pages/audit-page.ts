import type { AuditRow } from '../../store/store';
import { html } from '../html';
import { layout, type Viewer, wordsOf } from './layout';

/** The rows as recorded: actions and details are the audit's own words (the log and the CLI print the same). */
export function auditPage(viewer: Viewer, rows: AuditRow[]): string {
  const t = wordsOf(viewer);
  return layout({
    title: t('audit.title'),
    section: 'audit',
    viewer,
    body: html`<h1>${t('audit.title')}</h1>
<p class="muted">${t.rich('audit.intro')}</p>
<table>
  <thead><tr><th>${t('audit.col.when')}</th><th>${t('audit.col.who')}</th><th>${t('audit.col.what')}</th><th>${t('audit.col.subject')}</th><th>${t('audit.col.detail')}</th></tr></thead>
  <tbody>${rows.map((row) => html`<tr><td class="nowrap">${t.time(row.at)}</td><td class="data">${row.actor}</td><td class="code">${row.action}</td>
    <td class="mono">${row.subject ?? ''}</td><td lang="en">${row.detail ?? ''}</td></tr>`)}</tbody>
</table>`,
  });
}
