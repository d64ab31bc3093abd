import { COMMAND_STATES, type AttemptRecord, type CommandKind, type CommandState, type StoredCommand } from '../../store/command-types';
import { commandKindName } from './command-kind-name';
import { maskFreeText } from '../../observability/mask';
import { isCurrencyCode } from '../../money/format-money';
import { maskedJson } from '../format';
import { html, isolated, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';
import { layout, type Viewer, wordsOf } from './layout';
import { money } from './money';
import { codeBeside } from './order-status-badge';
import { when } from './when';

const TONE: Record<CommandState, string> = {
  pending: 'pending', net_cancelling: 'pending',
  succeeded: 'delivered', approved: 'delivered', net_cancelled: 'delivered',
  failed: 'dead', declined: 'dead', net_cancel_failed: 'dead',
};

const stateBadge = (t: Translator, state: CommandState) => {
  const name = t(`commandState.${state}`);
  return html`<span class="badge ${TONE[state]}">${name}</span>${codeBeside(name, state)}`;
};
const commandLink = (id: string) => html`<a class="mono" href="/console/commands/${encodeURIComponent(id)}">${id}</a>`;

/** The amount a trade or a cancellation asked for (`amountInfo`), in its currency; none for the rest (a VAN body is the shop's own). */
function requestAmount(t: Translator, request: Record<string, unknown>): SafeHtml | null {
  const info = request.amountInfo;
  if (typeof info !== 'object' || info === null) return null;
  const { totalAmount, totAmount, currency } = info as Record<string, unknown>;
  const amount = typeof totalAmount === 'number' ? totalAmount : typeof totAmount === 'number' ? totAmount : null;
  return amount !== null && typeof currency === 'string' && isCurrencyCode(currency) ? money(t, amount, currency) : null;
}

export function commandsPage(viewer: Viewer, rows: StoredCommand[], counts: Array<{ kind: CommandKind; state: CommandState; count: number }>, state: string): string {
  const t = wordsOf(viewer);
  const totals = new Map<string, number>();
  for (const c of counts) totals.set(c.state, (totals.get(c.state) ?? 0) + c.count);
  return layout({
    title: t('commands.title'),
    section: 'commands',
    viewer,
    body: html`<h1>${t('commands.title')}</h1>
<p class="muted">${t('commands.intro')}</p>
<nav class="chips"><a href="/console/commands" class="${state ? '' : 'active'}">${t('common.all')}</a>${COMMAND_STATES.map(
      (s) => html`<a href="/console/commands?state=${s}" class="${s === state ? 'active' : ''}">${t(`commandState.${s}`)} <span class="muted">${totals.get(s) ?? 0}</span></a>`,
    )}</nav>
<table>
  <thead><tr><th>${t('commands.col.created')}</th><th>${t('commands.col.shopTransactionId')}</th><th>${t('commands.col.command')}</th><th>${t('commands.col.mallId')}</th><th>${t('commands.col.state')}</th><th class="num">${t('commands.col.amount')}</th><th class="num">${t('commands.col.attempts')}</th><th>${t('commands.col.lastError')}</th></tr></thead>
  <tbody>${rows.length === 0
    ? html`<tr><td colspan="8" class="muted">${state ? t('commands.noneInState', { state: t(`commandState.${state as CommandState}`) }) : t('commands.none')}</td></tr>`
    : rows.map((c) => html`<tr><td>${when(t, c.createdAt)}</td><td>${commandLink(c.shopTransactionId)}</td><td>${commandKindName(t, c.command)}</td>
    <td class="mono">${c.mallId}</td><td>${stateBadge(t, c.state)}</td><td class="num">${requestAmount(t, c.request) ?? ''}</td><td class="num">${c.attempts}</td><td class="error" lang="en">${c.lastError ?? ''}</td></tr>`)}</tbody>
</table>`,
  });
}

/** The gateway's resCd and message, as it sent them; an answer that was not its JSON is shown as text, masked as free text. */
function answerOf(attempt: AttemptRecord): string {
  if (attempt.response) return `${String(attempt.response.resCd ?? '')} ${String(attempt.response.resMsg ?? '')}`;
  return attempt.answerText ? maskFreeText(attempt.answerText.slice(0, 200)) : '';
}

export function commandPage(viewer: Viewer, command: StoredCommand, attempts: AttemptRecord[]): string {
  const t = wordsOf(viewer);
  const amount = requestAmount(t, command.request);
  return layout({
    title: command.shopTransactionId,
    section: 'commands',
    viewer,
    body: html`<p class="kicker">${t.rich('command.kicker', { command: commandKindName(t, command.command), mallId: command.mallId })}</p>
<h1 class="mono">${command.shopTransactionId}</h1>
<div class="actions">${stateBadge(t, command.state)} <span class="muted">${amount ? html`${t.rich('command.amount', { amount })} · ` : ''}${t('command.facts', { n: command.attempts, created: t.time(command.createdAt), updated: t.time(command.updatedAt) })}</span></div>
${command.lastError ? html`<div class="error" role="alert">${t.rich('command.lastError', { error: html`<span lang="en">${command.lastError}</span>` })}</div>` : ''}
<section class="card"><h2>${t('command.attempts')}</h2>
<table>
  <thead><tr><th class="num">#</th><th>${t('command.col.operation')}</th><th>${t('command.col.started')}</th><th>${t('command.col.finished')}</th><th>${t('command.col.http')}</th><th>${t('command.col.answer')}</th><th>${t('command.col.error')}</th></tr></thead>
  <tbody>${attempts.length === 0
    ? html`<tr><td colspan="7" class="muted">${t('command.nothingSent')}</td></tr>`
    : attempts.map((a) => html`<tr><td class="num">${a.n}</td><td class="mono">${a.operation}</td><td>${when(t, a.startedAt)}</td>
    <td>${a.finishedAt ? when(t, a.finishedAt) : html`<span class="muted">${t('command.noAnswerRecorded')}</span>`}</td><td>${a.httpStatus ?? ''}</td>
    <td class="mono gateway-text">${isolated(answerOf(a))}</td><td class="error" lang="en">${a.error ?? ''}</td></tr>`)}</tbody>
</table></section>
<div class="columns">
<section class="card"><h2>${t('command.request')}</h2><pre>${maskedJson(command.request)}</pre></section>
<section class="card"><h2>${t('command.lastAnswer')}</h2>${command.response ? html`<pre>${maskedJson(command.response)}</pre>` : html`<p class="muted">${t('command.noAnswer')}</p>`}</section>
</div>`,
  });
}

/** Where the internal API is not assembled (off in this process: no API_TOKEN), say so rather than 404. */
export function commandsUnavailablePage(viewer: Viewer): string {
  const t = wordsOf(viewer);
  return layout({
    title: t('commands.title'),
    section: 'commands',
    viewer,
    body: html`<h1>${t('commands.title')}</h1><p class="muted">${t('commands.unavailable')}</p>`,
  });
}
