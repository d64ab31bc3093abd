import type { BodyView } from '../body-view';
import { html, isolated, maskedText, visibleBidiControls } from '../html';
import type { Translator } from '../i18n/translator';

/** The body as it came: field names and values are the gateway's, shown as they are (masked by bodyView, once). */
export function bodySection(t: Translator, title: string, view: BodyView, contentType: string | null) {
  if (view.kind === 'pruned') {
    return html`<section class="card"><h2>${title}</h2><p class="muted">${t('body.pruned')}</p></section>`;
  }
  return html`<section class="card"><h2>${title}</h2>
  <p class="muted">${t.rich('body.facts', { contentType: contentType ? html`<span class="mono">${contentType}</span>` : t.rich('body.noContentType'), bytes: view.bytes })}</p>
  ${view.kind === 'fields'
    ? html`<table class="fields"><tbody>${view.fields.map(([name, value]) => html`<tr><th class="mono">${maskedText(name)}</th><td class="mono">${isolated(maskedText(value))}</td></tr>`)}</tbody></table>`
    : html`<p class="error">${t('body.undecodable')}</p><pre>${maskedText(visibleBidiControls(view.text))}</pre>`}
</section>`;
}
