import { html, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';

/**
 * An amount on a page: in its currency as the page's language writes money (`₩12,000`,
 * `12,000원`, `$12.03`), never the bare minor-unit integer; a negative one keeps its sign and is
 * marked, since a negative remainder is money owed back.
 */
export function money(t: Translator, amount: number | null, currency: string): SafeHtml {
  if (amount === null) return html`<span class="muted">${t('common.unreadable')}</span>`;
  const text = t.money(amount, currency);
  return amount < 0 ? html`<span class="money negative">${text}</span>` : html`<span class="money">${text}</span>`;
}
