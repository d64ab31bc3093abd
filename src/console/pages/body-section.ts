import type { BodyView } from '../body-view';
import { html, isolated, visibleBidiControls } from '../html';

export function bodySection(title: string, view: BodyView, contentType: string | null) {
  if (view.kind === 'pruned') {
    return html`<section class="card"><h2>${title}</h2><p class="muted">Removed by the retention policy (RETENTION_DAYS); the dedup key and body hash are kept.</p></section>`;
  }
  return html`<section class="card"><h2>${title}</h2>
  <p class="muted">${contentType ?? 'no Content-Type'} · ${view.bytes} bytes · decoded, personal fields masked</p>
  ${view.kind === 'fields'
    ? html`<table class="fields"><tbody>${view.fields.map(([name, value]) => html`<tr><th class="mono">${name}</th><td class="mono">${isolated(value)}</td></tr>`)}</tbody></table>`
    : html`<p class="error">The body could not be decoded into fields; shown as text with personal data masked.</p><pre>${visibleBidiControls(view.text)}</pre>`}
</section>`;
}
