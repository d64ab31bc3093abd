import type { AuditRow } from '../../store/store';
import { html, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';
import { AUDIT_ACTIONS, auditActionName, auditActor, auditDetail, auditSubject } from './audit-words';
import { layout, type Viewer, wordsOf } from './layout';
import { codeBeside } from './order-status-badge';
import { when } from './when';

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

/**
 * The action filter is a choice among the actions the audit records, named in the page's words;
 * its value is the stored name. One typed into the URL that the list lacks stays chosen.
 */
function actionChoice(t: Translator, chosen: string): SafeHtml {
  const actions = Object.keys(AUDIT_ACTIONS);
  if (chosen && !actions.includes(chosen)) actions.push(chosen);
  return html`<select name="action"><option value="">${t('audit.filter.anyAction')}</option>${actions.map(
    (action) => html`<option value="${action}"${action === chosen ? html` selected` : ''}>${auditActionName(t, action)}</option>`,
  )}</select>`;
}

/**
 * The rows as recorded, in the page's words: actions by name with the stored name small beside
 * (what the log and the CLI print), details read back from the forms the service writes them in.
 */
export function auditPage(viewer: Viewer, view: AuditView): string {
  const t = wordsOf(viewer);
  const { form, rows } = view;
  const filtered = Object.values(form).some(Boolean);
  return layout({
    title: t('audit.title'),
    section: 'audit',
    viewer,
    body: html`<h1>${t('audit.title')}</h1>
<p class="muted">${t.rich('audit.intro')}</p>
<form method="get" action="/console/audit" class="filters card" role="search">
  <label>${t('audit.filter.operator')}<input name="operator" value="${form.operator}" placeholder="${t('audit.filter.operatorPlaceholder')}"></label>
  <label>${t('audit.filter.action')}${actionChoice(t, form.action)}</label>
  <label>${t('common.from')}<input name="from" type="date" value="${form.from}"></label>
  <label>${t('common.to')}<input name="to" type="date" value="${form.to}"></label>
  <button type="submit" class="primary">${t('common.apply')}</button>
  ${filtered ? html`<a href="/console/audit" class="button">${t('common.clear')}</a>` : ''}
</form>
<table>
  <thead><tr><th>${t('audit.col.when')}</th><th>${t('audit.col.who')}</th><th>${t('audit.col.what')}</th><th>${t('audit.col.subject')}</th><th>${t('audit.col.detail')}</th></tr></thead>
  <tbody>${rows.length === 0
    ? html`<tr><td colspan="5" class="muted">${t('audit.noneMatch')}</td></tr>`
    : rows.map((row) => html`<tr><td>${when(t, row.at)}</td><td class="data">${auditActor(t, row.actor)}</td><td>${auditActionName(t, row.action)}${codeBeside(auditActionName(t, row.action), row.action)}</td>
    <td class="mono">${auditSubject(t, row.subject)}</td><td>${auditDetail(t, row.action, row.detail)}</td></tr>`)}</tbody>
</table>
<nav class="pager">
  ${view.paged ? html`<a href="${auditHref(form, null)}">${t('audit.newest')}</a>` : ''}
  ${view.next !== null ? html`<a href="${auditHref(form, view.next)}">${t('audit.older')}</a>` : ''}
</nav>`,
  });
}
