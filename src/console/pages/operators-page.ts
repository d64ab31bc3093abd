import type { OperatorRow } from '../../store/store';
import { OPERATOR_ROLES } from '../../store/store';
import { html, type SafeHtml } from '../html';
import { actionButton, csrfField, layout, type Viewer, wordsOf } from './layout';
import { codeBeside } from './order-status-badge';
import { when } from './when';

export interface OperatorsPageState {
  notice?: string | null;
  /** Already in the page's words. */
  error?: string | SafeHtml | null;
  /** Shown in the answer to the POST that made it, never again (only its hash is stored). */
  newToken?: { name: string; token: string };
}

export function operatorsPage(viewer: Viewer, rows: OperatorRow[], state: OperatorsPageState): string {
  const t = wordsOf(viewer);
  return layout({
    title: t('operators.title'),
    section: 'operators',
    viewer,
    notice: state.notice ?? null,
    body: html`<h1>${t('operators.title')}</h1>
<p class="muted">${t.rich('operators.intro')}</p>
${state.error ? html`<p class="error" role="alert">${state.error}</p>` : ''}
${state.newToken
    ? html`<section class="card"><h2>${t('operators.tokenOf', { name: state.newToken.name })}</h2>
<p>${t('operators.tokenOnce')}</p>
<p><code class="mono" id="new-token">${state.newToken.token}</code></p></section>`
    : ''}
<table class="operators">
  <thead><tr><th>${t('operators.col.name')}</th><th>${t('operators.col.role')}</th><th>${t('operators.col.signsIn')}</th><th>${t('operators.col.added')}</th><th>${t('operators.col.tokenSet')}</th><th></th></tr></thead>
  <tbody>${rows.map((row) => html`<tr><td class="mono">${row.name}</td><td>${t(`role.${row.role}`)}${codeBeside(t(`role.${row.role}`), row.role)}</td><td>${row.sso ? t('operators.sso') : t('operators.token')}${row.canCancel ? html`<br><span class="badge">${t('operators.canCancel')}</span>` : ''}</td>
    <td>${when(t, row.createdAt)}</td><td>${row.tokenSetAt ? when(t, row.tokenSetAt) : ''}</td>
    <td class="actions">${row.sso ? '' : actionButton(viewer, '/console/operators/token', t('operators.replaceToken'), { name: row.name }, 'secondary', 'admin')}
    ${actionButton(viewer, '/console/operators/remove', t('operators.remove'), { name: row.name }, 'danger', 'admin')}</td></tr>`)}</tbody>
</table>
<section class="card narrow"><h2>${t('operators.add')}</h2>
<form method="post" action="/console/operators/add" class="stack">${csrfField(viewer)}
  <label for="operator-name">${t('operators.name')}</label>
  <input id="operator-name" name="name" required maxlength="254" autocomplete="off">
  <label for="operator-role">${t('operators.role')}</label>
  <select id="operator-role" name="role">${OPERATOR_ROLES.map((role) => html`<option value="${role}">${t(`role.${role}`)}</option>`)}</select>
  <label><input type="checkbox" name="sso"> ${t('operators.ssoCheckbox')}</label>
  <label><input type="checkbox" name="can_cancel"> ${t('operators.canCancelCheckbox')}</label>
  <button type="submit" class="primary">${t('operators.addButton')}</button>
</form></section>`,
  });
}
