import type { OperatorRow } from '../../store/store';
import { OPERATOR_ROLES } from '../../store/store';
import { kstTime } from '../format';
import { html } from '../html';
import { actionButton, csrfField, layout, type Viewer } from './layout';

export interface OperatorsPageState {
  notice?: string | null;
  error?: string | null;
  /** Shown in the answer to the POST that made it, never again (only its hash is stored). */
  newToken?: { name: string; token: string };
}

export function operatorsPage(viewer: Viewer, rows: OperatorRow[], state: OperatorsPageState): string {
  return layout({
    title: 'Operators',
    section: 'operators',
    viewer,
    notice: state.notice ?? null,
    body: html`<h1>Operators</h1>
<p class="muted">Who may use this console and what they may do: a viewer reads, an operator also requeues and reprocesses, an admin also manages operators. The bootstrap <span class="mono">admin</span> (ADMIN_TOKEN) is not listed and cannot be removed here.</p>
${state.error ? html`<p class="error" role="alert">${state.error}</p>` : ''}
${state.newToken
    ? html`<section class="card"><h2>Token of ${state.newToken.name}</h2>
<p>Shown this once: only a hash of it is stored. Hand it over privately; a lost token is replaced, never shown again.</p>
<p><code class="mono" id="new-token">${state.newToken.token}</code></p></section>`
    : ''}
<table class="operators">
  <thead><tr><th>name</th><th>role</th><th>signs in</th><th>added</th><th>token set</th><th></th></tr></thead>
  <tbody>${rows.map((row) => html`<tr><td class="mono">${row.name}</td><td>${row.role}</td><td>${row.sso ? 'single sign-on' : 'token'}</td>
    <td class="nowrap">${kstTime(row.createdAt)}</td><td class="nowrap">${row.tokenSetAt ? kstTime(row.tokenSetAt) : ''}</td>
    <td class="actions">${row.sso ? '' : actionButton(viewer, '/console/operators/token', 'Replace token', { name: row.name }, 'secondary', 'admin')}
    ${actionButton(viewer, '/console/operators/remove', 'Remove', { name: row.name }, 'danger', 'admin')}</td></tr>`)}</tbody>
</table>
<section class="card narrow"><h2>Add an operator</h2>
<form method="post" action="/console/operators/add" class="stack">${csrfField(viewer)}
  <label for="operator-name">Name</label>
  <input id="operator-name" name="name" required maxlength="254" autocomplete="off">
  <label for="operator-role">Role</label>
  <select id="operator-role" name="role">${OPERATOR_ROLES.map((role) => html`<option value="${role}">${role}</option>`)}</select>
  <label><input type="checkbox" name="sso"> Signs in through single sign-on (no token)</label>
  <button type="submit" class="primary">Add operator</button>
</form></section>`,
  });
}
