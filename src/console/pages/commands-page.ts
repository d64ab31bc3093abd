import { COMMAND_STATES, type AttemptRecord, type CommandKind, type CommandState, type StoredCommand } from '../../store/command-store';
import { maskFreeText } from '../../observability/mask';
import { kstTime, maskedJson } from '../format';
import { html, isolated } from '../html';
import { layout, type Viewer } from './layout';

const TONE: Record<CommandState, string> = {
  pending: 'pending', net_cancelling: 'pending',
  succeeded: 'delivered', approved: 'delivered', net_cancelled: 'delivered',
  failed: 'dead', declined: 'dead', net_cancel_failed: 'dead',
};

const stateBadge = (state: CommandState) => html`<span class="badge ${TONE[state]}">${state}</span>`;
const commandLink = (id: string) => html`<a class="mono" href="/console/commands/${encodeURIComponent(id)}">${id}</a>`;

export function commandsPage(viewer: Viewer, rows: StoredCommand[], counts: Array<{ kind: CommandKind; state: CommandState; count: number }>, state: string): string {
  const totals = new Map<string, number>();
  for (const c of counts) totals.set(c.state, (totals.get(c.state) ?? 0) + c.count);
  return layout({
    title: 'Commands',
    section: 'commands',
    viewer,
    body: html`<h1>Commands</h1>
<p class="muted">Calls the shop's systems made to the gateway through the internal API: trade creation, cancellations, VAN approvals and their net-cancels.</p>
<nav class="chips"><a href="/console/commands" class="${state ? '' : 'active'}">all</a>${COMMAND_STATES.map(
      (s) => html`<a href="/console/commands?state=${s}" class="${s === state ? 'active' : ''}">${s} <span class="muted">${totals.get(s) ?? 0}</span></a>`,
    )}</nav>
<table>
  <thead><tr><th>created</th><th>shopTransactionId</th><th>command</th><th>mallId</th><th>state</th><th class="num">attempts</th><th>last error</th></tr></thead>
  <tbody>${rows.length === 0
    ? html`<tr><td colspan="7" class="muted">No commands${state ? html` in state ${state}` : ''}.</td></tr>`
    : rows.map((c) => html`<tr><td class="nowrap">${kstTime(c.createdAt)}</td><td>${commandLink(c.shopTransactionId)}</td><td>${c.command}</td>
    <td class="mono">${c.mallId}</td><td>${stateBadge(c.state)}</td><td class="num">${c.attempts}</td><td class="error">${c.lastError ?? ''}</td></tr>`)}</tbody>
</table>`,
  });
}

/** The gateway's resCd and message; an answer that was not its JSON is shown as text, masked as free text. */
function answerOf(attempt: AttemptRecord): string {
  if (attempt.response) return `${String(attempt.response.resCd ?? '')} ${String(attempt.response.resMsg ?? '')}`;
  return attempt.answerText ? maskFreeText(attempt.answerText.slice(0, 200)) : '';
}

export function commandPage(viewer: Viewer, command: StoredCommand, attempts: AttemptRecord[]): string {
  return layout({
    title: command.shopTransactionId,
    section: 'commands',
    viewer,
    body: html`<p class="kicker">Command · ${command.command} · mall ${command.mallId}</p>
<h1 class="mono">${command.shopTransactionId}</h1>
<div class="actions">${stateBadge(command.state)} <span class="muted">${command.attempts} attempt(s) · created ${kstTime(command.createdAt)} · updated ${kstTime(command.updatedAt)}</span></div>
${command.lastError ? html`<div class="error" role="alert">Last error: ${command.lastError}</div>` : ''}
<section class="card"><h2>Attempts</h2>
<table>
  <thead><tr><th class="num">#</th><th>operation</th><th>started</th><th>finished</th><th>HTTP</th><th>answer</th><th>error</th></tr></thead>
  <tbody>${attempts.length === 0
    ? html`<tr><td colspan="7" class="muted">Nothing sent yet.</td></tr>`
    : attempts.map((a) => html`<tr><td class="num">${a.n}</td><td class="mono">${a.operation}</td><td class="nowrap">${kstTime(a.startedAt)}</td>
    <td class="nowrap">${a.finishedAt ? kstTime(a.finishedAt) : html`<span class="muted">no answer recorded</span>`}</td><td>${a.httpStatus ?? ''}</td>
    <td class="mono">${isolated(answerOf(a))}</td><td class="error">${a.error ?? ''}</td></tr>`)}</tbody>
</table></section>
<div class="columns">
<section class="card"><h2>Request (as last sent)</h2><pre>${maskedJson(command.request)}</pre></section>
<section class="card"><h2>Last answer</h2>${command.response ? html`<pre>${maskedJson(command.response)}</pre>` : html`<p class="muted">No answer yet.</p>`}</section>
</div>`,
  });
}

/** Where the internal API is not assembled (SPEC 5 off in this process), say so rather than 404. */
export function commandsUnavailablePage(viewer: Viewer): string {
  return layout({
    title: 'Commands',
    section: 'commands',
    viewer,
    body: html`<h1>Commands</h1><p class="muted">The internal API's command store is not available in this process.</p>`,
  });
}
