import type { ConflictComparison } from '../../operator/conflict-comparison';
import { maskChange } from '../../operator/field-diff';
import type { ConflictLine, ConflictRow, EventDetail } from '../../store/store';
import { html, isolated } from '../html';
import type { Translator } from '../i18n/translator';
import { layout, type Viewer, wordsOf } from './layout';
import { when } from './when';

const shown = (t: Translator, value: unknown) => (value === undefined ? html`<span class="muted">${t('conflict.absent')}</span>` : isolated(typeof value === 'string' ? value : JSON.stringify(value)));

export function conflictsPage(viewer: Viewer, rows: ConflictLine[]): string {
  const t = wordsOf(viewer);
  return layout({
    title: t('conflicts.title'),
    section: 'conflicts',
    viewer,
    body: html`<h1>${t('conflicts.title')}</h1>
<p class="muted">${t('conflicts.intro')}</p>
<table>
  <thead><tr><th>${t('conflicts.col.id')}</th><th>${t('conflicts.col.received')}</th><th>${t('conflicts.col.event')}</th><th>${t('conflicts.col.shopOrderNo')}</th><th>${t('conflicts.col.from')}</th></tr></thead>
  <tbody>${rows.length === 0
    ? html`<tr><td colspan="5" class="muted">${t('conflicts.none')}</td></tr>`
    : rows.map((row) => html`<tr><td><a href="/console/conflicts/${row.id}">${row.id}</a></td><td>${when(t, row.receivedAt)}</td>
    <td><a class="mono" href="/console/events/${encodeURIComponent(row.eventId)}">${row.eventId}</a></td><td class="mono order-no">${isolated(row.shopOrderNo)}</td><td class="mono">${row.sourceIp}</td></tr>`)}</tbody>
</table>`,
  });
}

/** Every field of both bodies, masked; the ones that differ are marked when both bodies are there to compare. */
export function conflictPage(viewer: Viewer, conflict: ConflictRow, stored: EventDetail | null, comparison: ConflictComparison): string {
  const t = wordsOf(viewer);
  const { storedPrunedAt, conflictPrunedAt, fields, differing } = comparison;
  const differs = new Set((differing ?? []).map((change) => change.field));
  /** What one side shows for a field it does not hold: pruned is not the same as absent. */
  const side = (value: unknown, prunedAt: string | null) => (prunedAt !== null && value === undefined ? html`<span class="muted">${t('conflict.pruned')}</span>` : shown(t, value));
  const eventLink = html`<a class="mono" href="/console/events/${encodeURIComponent(conflict.eventId)}">${conflict.eventId}</a>`;
  return layout({
    title: t('conflict.title', { id: conflict.id }),
    section: 'conflicts',
    viewer,
    body: html`<h1>${t('conflict.title', { id: conflict.id })}</h1>
<p>${t.rich('conflict.sentAgain', { event: eventLink, time: t.time(conflict.receivedAt), ip: html`<span class="mono">${conflict.sourceIp}</span>` })}${differing === null ? '' : t('conflict.differCount', { n: differs.size })}</p>
${stored ? '' : html`<p class="error">${t('conflict.storedGone')}</p>`}
${storedPrunedAt === null ? '' : html`<p class="muted">${t('conflict.storedPruned', { time: t.time(storedPrunedAt) })}</p>`}
${conflictPrunedAt === null ? '' : html`<p class="muted">${t('conflict.conflictPruned', { time: t.time(conflictPrunedAt) })}</p>`}
${fields.length === 0 ? '' : html`<table class="diff">
  <thead><tr><th>${t('conflict.col.field')}</th><th>${t('conflict.col.stored', { time: stored ? t.time(stored.receivedAt) : '—' })}</th><th>${t('conflict.col.conflicting', { time: t.time(conflict.receivedAt) })}</th></tr></thead>
  <tbody>${fields.map(maskChange).map((change) => html`<tr class="${differs.has(change.field) ? 'differs' : ''}">
    <th class="mono">${change.field}${differs.has(change.field) ? html` <span class="badge dead">${t('conflict.differs')}</span>` : ''}</th>
    <td class="mono">${side(change.stored, storedPrunedAt)}</td><td class="mono">${side(change.conflicting, conflictPrunedAt)}</td></tr>`)}</tbody>
</table>`}`,
  });
}
