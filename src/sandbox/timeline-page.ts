import { Router } from 'express';
import { KST_OFFSET_MS } from '../notifications/kst-date';
import { html, page } from './html';
import type { SandboxContext } from './sandbox-context';
import type { CallEntry, DeliveryAttempt, NotificationEntry } from './timeline';

/** Every call received and every notification sent, newest first, with each ack as it came back. */
export function timelinePage(ctx: SandboxContext): Router {
  const router = Router();
  router.get('/sandbox/timeline.json', (_req, res) => res.json(ctx.timeline.entries()));
  router.get('/sandbox/timeline', (_req, res) => {
    const entries = [...ctx.timeline.entries()].reverse();
    res.type('html').send(
      page('Timeline', html`<h1>Timeline</h1>
        <p class="muted">Calls the sandbox received and notifications it sent, newest first, in Korean time (KST, UTC+9; hover for UTC). Reload to follow retries.</p>
        ${entries.length === 0 ? html`<div class="card">Nothing yet: create a trade with POST /api/trades/wallet-a.</div>` : html`
        <table><thead><tr><th>#</th><th>time</th><th>what</th><th>ids</th><th>scenario</th><th>result</th></tr></thead>
        <tbody>${entries.map((e) => (e.kind === 'call' ? callRow(e) : notificationRow(e)))}</tbody></table>`}`),
    );
  });
  return router;
}

/**
 * Korean time with its zone, as the console and the gateway's portal show it, to the millisecond
 * (retries can be milliseconds apart); the cell's title keeps the UTC instant.
 */
const kstClock = (iso: string) => `${new Date(Date.parse(iso) + KST_OFFSET_MS).toISOString().slice(11, 23)} KST`;
const time = (iso: string) => html`<span title="${iso}">${kstClock(iso)}</span>`;

const ids = (pairs: Array<[string, string | null]>) =>
  pairs.filter(([, value]) => value).map(([label, value]) => html`<div><span class="muted">${label}</span> <span class="mono">${value}</span></div>`);

function callRow(e: CallEntry) {
  const resCd = typeof e.answer?.resCd === 'string' ? e.answer.resCd : '';
  const outcome =
    e.outcome === 'answered' ? html`<span class="tag ${resCd === '0000' ? 'ok' : 'bad'}">${resCd}</span> ${String(e.answer?.resMsg ?? '')}`
    : html`<span class="tag wait">${e.outcome === 'withheld' ? 'no answer (time-out)' : 'connection reset'}</span> <span class="muted">would have been ${resCd}</span>`;
  return html`<tr><td>${e.seq}</td><td class="mono">${time(e.at)}</td><td>call <strong>${e.operation}</strong></td>
    <td class="ids">${ids([['shopTransactionId', e.shopTransactionId]])}</td><td>${e.scenario ? html`<span class="tag wait">${e.scenario}</span>` : ''}</td><td>${outcome}</td></tr>`;
}

function notificationRow(e: NotificationEntry) {
  const state = e.state === 'acked' ? 'ok' : e.state === 'gave-up' ? 'bad' : 'wait';
  return html`<tr><td>${e.seq}</td><td class="mono">${time(e.at)}</td>
    <td>notification <strong>${e.notiType}</strong><br><span class="muted mono">${e.url}</span></td>
    <td class="ids">${ids([['order', e.shopOrderNo], ['pgCno', e.pgCno], ['cancelPgCno', e.cancelPgCno]])}</td>
    <td></td>
    <td><span class="tag ${state}">${e.state}</span> after ${e.attempts.length} ${e.attempts.length === 1 ? 'try' : 'tries'}
      <ol class="attempts">${e.attempts.map(attemptItem)}</ol></td></tr>`;
}

function attemptItem(a: DeliveryAttempt) {
  const label = a.status === null ? a.reason ?? 'error' : `HTTP ${a.status} ${(a.ack ?? '').replace(/\x1f/g, '<0x1F>')}`;
  const notes = [a.copy > 1 ? `copy ${a.copy}` : '', a.replyLost ? 'resent after the ack (reply lost)' : ''].filter(Boolean).join(', ');
  return html`<li><span class="mono">${time(a.at)}</span> <span class="tag ${a.verdict === 'acked' ? 'ok' : 'bad'}">${a.verdict}</span>
    <span class="mono">${label}</span>${notes ? html` <span class="muted">(${notes})</span>` : ''}</li>`;
}
