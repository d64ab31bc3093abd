import { PLAYBOOK_KINDS, PLAYBOOKS } from '../discrepancy-playbooks';
import { html, isolated, type SafeHtml } from '../html';
import { layout, type Viewer, wordsOf } from './layout';
import { codeBeside, orderHref } from './order-status-badge';

/** The order a playbook was opened from (its discrepancy's "What to do" link), to link back to. */
export interface PlaybookOrder {
  mallId: string;
  shopOrderNo: string;
}

/** Longer than any mall id or order number the gateway sends: a link, not a lookup, so only its length is bounded. */
const MAX_ORDER_PARAM = 100;

/** `?mall=…&order=…` of a "What to do" link, or null when either is missing (the page then links no order). */
export function playbookOrder(query: Record<string, unknown>): PlaybookOrder | null {
  const { mall, order } = query;
  if (typeof mall !== 'string' || typeof order !== 'string') return null;
  if (!mall || !order || mall.length > MAX_ORDER_PARAM || order.length > MAX_ORDER_PARAM) return null;
  return { mallId: mall, shopOrderNo: order };
}

/** A playbook's text with its `quoted` commands and settings as code. */
const withCode = (text: string): SafeHtml => html`${text.split('`').map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part))}`;

/**
 * What to do when a discrepancy opens: one section per kind, its id the kind
 * (`/console/playbooks#over_cancel`). Each says what to do in the console and in the gateway's
 * merchant portal; the API and CLI remedies sit apart, folded, for engineers. Opened from an
 * order (`?mall=…&order=…`), every section links back to that order.
 */
export function playbooksPage(viewer: Viewer, order: PlaybookOrder | null = null): string {
  const t = wordsOf(viewer);
  const book = PLAYBOOKS[t.locale];
  const steps = (items: string[]) => html`<ol>${items.map((item) => html`<li>${withCode(item)}</li>`)}</ol>`;
  const backToOrder = order
    ? html`<p class="order-back"><a href="${orderHref(order.mallId, order.shopOrderNo)}">${t.rich('playbooks.backToOrder', { order: isolated(order.shopOrderNo), mall: order.mallId })}</a></p>`
    : html``;
  return layout({
    title: t('playbooks.title'),
    section: 'discrepancies',
    viewer,
    body: html`<h1>${t('playbooks.title')}</h1>
<p class="muted">${t('playbooks.intro')}</p>
${order ? backToOrder : html`<p class="muted">${t('playbooks.openFromOrder')}</p>`}
<nav class="chips">${PLAYBOOK_KINDS.map((kind) => html`<a href="#${kind}">${book[kind].name}</a>`)}</nav>
${PLAYBOOK_KINDS.map((kind) => {
    const playbook = book[kind];
    return html`<section class="card playbook" id="${kind}">
<h2>${playbook.name}${codeBeside(playbook.name, kind)}</h2>
<p><strong>${playbook.line}</strong></p>
${backToOrder}
<h3>${t('playbooks.means')}</h3><p>${withCode(playbook.means)}</p>
<h3>${t('playbooks.console')}</h3>${steps(playbook.console)}
<h3>${t('playbooks.portal')}</h3>${steps(playbook.portal)}
<details class="engineers"><summary>${t('playbooks.engineers')}</summary>${steps(playbook.engineers)}</details>
</section>`;
  })}`,
  });
}
