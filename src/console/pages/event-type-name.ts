import { html, type SafeHtml } from '../html';
import type { MessageKey } from '../i18n/catalogues';
import type { Translator } from '../i18n/translator';

/**
 * A type's name in the page's words (`eventType.<type>` in the catalogues, for every type the
 * queue carries); English keeps the code, which the queue, the logs and the filter say. A type the
 * catalogue does not name is shown as its code.
 */
export function eventTypeText(t: Translator, type: string): string {
  const key = `eventType.${type}` as MessageKey;
  const name = t.locale === 'en' ? key : t(key);
  return name === key ? type : name;
}

/**
 * The type's name with its code small beside, so the docs and the logs can be searched by it; the
 * code alone where there is no name (English), in an element of `codeClass` when given.
 */
export function eventTypeName(t: Translator, type: string, codeClass?: string): SafeHtml {
  const name = eventTypeText(t, type);
  if (name === type) return codeClass ? html`<span class="${codeClass}">${type}</span>` : html`${type}`;
  return html`${name} <code class="code-tag">${type}</code>`;
}
