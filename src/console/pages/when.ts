import { html, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';

/**
 * An instant in a table cell: the day and the time of day each kept whole, so a narrow column
 * puts the time under the day instead of breaking inside either, or pushing the table past the window.
 */
export function when(t: Translator, iso: string | null | undefined): SafeHtml {
  const text = t.time(iso);
  const split = /^(.*\S)\s+(\d{2}:\d{2}:\d{2} KST)$/.exec(text);
  return split ? html`<span class="when"><span>${split[1]}</span> <span>${split[2]}</span></span>` : html`<span class="when">${text}</span>`;
}
