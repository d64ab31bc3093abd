import { maskFreeText } from '../../observability/mask';
import type { DeliveryAttempt } from '../../store/store';
import { html, maskedText } from '../html';
import type { Translator } from '../i18n/translator';
import { when } from './when';

/**
 * An event's delivery history. Error text may quote what a queue or endpoint answered about the
 * event, so it is masked as free text (card-like digit runs, sensitive names) before it is shown.
 */
export function deliveryAttemptsSection(t: Translator, attempts: DeliveryAttempt[]) {
  return html`<section class="card"><h2>${t('attempts.heading')}</h2>
<table class="attempts">
  <thead><tr><th class="num">#</th><th>${t('attempts.col.when')}</th><th>${t('attempts.col.outcome')}</th><th>${t('attempts.col.error')}</th></tr></thead>
  <tbody>${attempts.length === 0
    ? html`<tr><td colspan="4" class="muted">${t('attempts.none')}</td></tr>`
    : attempts.map((a) => html`<tr><td class="num">${a.attempt ?? '—'}</td><td>${when(t, a.at)}</td>
    <td>${outcomeOf(t, a)}</td><td class="error mono">${errorOf(t, a)}</td></tr>`)}</tbody>
</table></section>`;
}

const OUTCOMES = { retry: 'attempts.retry', requeued: 'attempts.requeued', delivered: 'attempts.delivered', dead: 'attempts.dead' } as const;

function outcomeOf(t: Translator, a: DeliveryAttempt) {
  const via = a.publisher ? html` <span class="muted">${t.rich('attempts.via', { publisher: html`<span class="code">${a.publisher}</span>` })}</span>` : '';
  const name = Object.hasOwn(OUTCOMES, a.outcome) ? t(OUTCOMES[a.outcome as keyof typeof OUTCOMES]) : a.outcome;
  if (a.outcome === 'retry') return html`${name}${via}${a.retryAt ? html` <span class="muted">${t('attempts.nextAt', { time: t.time(a.retryAt) })}</span>` : ''}`;
  if (a.outcome === 'requeued') return html`${name}${a.actor ? html` <span class="muted">${t.rich('attempts.by', { actor: html`<span class="data">${a.actor}</span>` })}</span>` : ''}`;
  return html`${name}${via}`;
}

function errorOf(t: Translator, a: DeliveryAttempt) {
  if (a.error !== null) return maskedText(maskFreeText(a.error));
  return a.prunedAt ? html`<span class="muted">${t('attempts.pruned')}</span>` : '';
}
