import { maskFreeText } from '../../observability/mask';
import type { DeliveryAttempt } from '../../store/store';
import { kstTime } from '../format';
import { html } from '../html';

/**
 * An event's delivery history. Error text may quote what a queue or endpoint answered about the
 * event, so it is masked as free text (card-like digit runs, sensitive names) before it is shown.
 */
export function deliveryAttemptsSection(attempts: DeliveryAttempt[]) {
  return html`<section class="card"><h2>Delivery attempts</h2>
<table class="attempts">
  <thead><tr><th class="num">#</th><th>when</th><th>outcome</th><th>error</th></tr></thead>
  <tbody>${attempts.length === 0
    ? html`<tr><td colspan="4" class="muted">Not tried yet.</td></tr>`
    : attempts.map((a) => html`<tr><td class="num">${a.attempt ?? '—'}</td><td class="nowrap">${kstTime(a.at)}</td>
    <td>${outcomeOf(a)}</td><td class="error mono">${errorOf(a)}</td></tr>`)}</tbody>
</table></section>`;
}

function outcomeOf(a: DeliveryAttempt) {
  const via = a.publisher ? html` <span class="muted">via ${a.publisher}</span>` : '';
  if (a.outcome === 'retry') return html`retry${via}${a.retryAt ? html` <span class="muted">· next at ${kstTime(a.retryAt)}</span>` : ''}`;
  if (a.outcome === 'requeued') return html`requeued${a.actor ? html` <span class="muted">by ${a.actor}</span>` : ''}`;
  return html`${a.outcome}${via}`;
}

function errorOf(a: DeliveryAttempt) {
  if (a.error !== null) return maskFreeText(a.error);
  return a.prunedAt ? html`<span class="muted">removed by the retention policy</span>` : '';
}
