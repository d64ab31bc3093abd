import { Router } from 'express';
import { KST_OFFSET_MS } from '../notifications/kst-date';
import type { Translator } from '../console/i18n/translator';
import { html, page, sandboxWords } from './html';
import type { SandboxContext } from './sandbox-context';
import type { CallEntry, DeliveryAttempt, NotificationEntry } from './timeline';

/** Every call received and every notification sent, newest first, with each ack as it came back. */
export function timelinePage(ctx: SandboxContext): Router {
  const router = Router();
  router.get('/sandbox/timeline.json', (_req, res) => res.json(ctx.timeline.entries()));
  router.get('/sandbox/timeline', (req, res) => {
    const t = sandboxWords(req);
    const entries = [...ctx.timeline.entries()].reverse();
    res.type('html').send(
      page(t('sandbox.timeline.title'), html`<h1>${t('sandbox.timeline.title')}</h1>
        <p class="muted">${t('sandbox.timeline.intro')}</p>
        ${entries.length === 0 ? html`<div class="card">${t('sandbox.timeline.nothing')} <code>POST /api/trades/wallet-a</code>.</div>` : html`
        <table><thead><tr><th>#</th><th>${t('sandbox.timeline.col.time')}</th><th>${t('sandbox.timeline.col.what')}</th><th>${t('sandbox.timeline.col.ids')}</th><th>${t('sandbox.timeline.col.scenario')}</th><th>${t('sandbox.timeline.col.result')}</th></tr></thead>
        <tbody>${entries.map((e) => (e.kind === 'call' ? callRow(t, e) : notificationRow(t, e)))}</tbody></table>`}`, t, '/sandbox/timeline'),
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

/** The gateway's own answer (resCd, resMsg) and the ack text are shown as they came. */
function callRow(t: Translator, e: CallEntry) {
  const resCd = typeof e.answer?.resCd === 'string' ? e.answer.resCd : '';
  const outcome =
    e.outcome === 'answered' ? html`<span class="tag ${resCd === '0000' ? 'ok' : 'bad'}">${resCd}</span> <span class="gateway-text">${String(e.answer?.resMsg ?? '')}</span>`
    : html`<span class="tag wait">${e.outcome === 'withheld' ? t('sandbox.timeline.timeout') : t('sandbox.timeline.reset')}</span> <span class="muted">${t('sandbox.timeline.wouldHaveBeen', { resCd })}</span>`;
  return html`<tr><td>${e.seq}</td><td class="mono">${time(e.at)}</td><td>${t('sandbox.timeline.call')} <strong class="mono">${e.operation}</strong></td>
    <td class="ids">${ids([['shopTransactionId', e.shopTransactionId]])}</td><td>${e.scenario ? html`<span class="tag wait mono">${e.scenario}</span>` : ''}</td><td>${outcome}</td></tr>`;
}

function notificationRow(t: Translator, e: NotificationEntry) {
  const state = e.state === 'acked' ? 'ok' : e.state === 'gave-up' ? 'bad' : 'wait';
  return html`<tr><td>${e.seq}</td><td class="mono">${time(e.at)}</td>
    <td>${t('sandbox.timeline.notification')} <strong>${e.notiType}</strong><br><span class="muted mono">${e.url}</span></td>
    <td class="ids">${ids([['shopOrderNo', e.shopOrderNo], ['pgCno', e.pgCno], ['cancelPgCno', e.cancelPgCno]])}</td>
    <td></td>
    <td><span class="tag mono ${state}">${e.state}</span> ${t('sandbox.timeline.tries', { n: e.attempts.length })}
      <ol class="attempts">${e.attempts.map((a) => attemptItem(t, a))}</ol></td></tr>`;
}

function attemptItem(t: Translator, a: DeliveryAttempt) {
  const label = a.status === null ? a.reason ?? 'error' : `HTTP ${a.status} ${(a.ack ?? '').replace(/\x1f/g, '<0x1F>')}`;
  const notes = [a.copy > 1 ? t('sandbox.timeline.copy', { n: a.copy }) : '', a.replyLost ? t('sandbox.timeline.replyLost') : ''].filter(Boolean).join(', ');
  return html`<li><span class="mono">${time(a.at)}</span> <span class="tag mono ${a.verdict === 'acked' ? 'ok' : 'bad'}">${a.verdict}</span>
    <span class="mono">${label}</span>${notes ? html` <span class="muted">(${notes})</span>` : ''}</li>`;
}
