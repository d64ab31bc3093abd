import { PLAYBOOK_KINDS, PLAYBOOKS } from '../discrepancy-playbooks';
import { html, type SafeHtml } from '../html';
import { layout, type Viewer, wordsOf } from './layout';
import { codeBeside } from './order-status-badge';

/** A playbook's text with its `quoted` commands and settings as code. */
const withCode = (text: string): SafeHtml => html`${text.split('`').map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part))}`;

/** What to do when a discrepancy opens: one section per kind, its id the kind (`/console/playbooks#over_cancel`). */
export function playbooksPage(viewer: Viewer): string {
  const t = wordsOf(viewer);
  const book = PLAYBOOKS[t.locale];
  const list = (items: string[]) => html`<ul>${items.map((item) => html`<li>${withCode(item)}</li>`)}</ul>`;
  return layout({
    title: t('playbooks.title'),
    section: 'discrepancies',
    viewer,
    body: html`<h1>${t('playbooks.title')}</h1>
<p class="muted">${t('playbooks.intro')}</p>
<nav class="chips">${PLAYBOOK_KINDS.map((kind) => html`<a href="#${kind}">${book[kind].name}</a>`)}</nav>
${PLAYBOOK_KINDS.map((kind) => {
    const playbook = book[kind];
    return html`<section class="card playbook" id="${kind}">
<h2>${playbook.name}${codeBeside(playbook.name, kind)}</h2>
<p><strong>${playbook.line}</strong></p>
<h3>${t('playbooks.means')}</h3><p>${withCode(playbook.means)}</p>
<h3>${t('playbooks.check')}</h3>${list(playbook.check)}
<h3>${t('playbooks.settle')}</h3>${list(playbook.settle)}
</section>`;
  })}`,
  });
}
