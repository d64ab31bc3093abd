import type { ConflictComparison } from '../../operator/conflict-comparison';
import { maskChange } from '../../operator/field-diff';
import type { ConflictRow, EventDetail } from '../../store/store';
import { kstTime } from '../format';
import { html, isolated } from '../html';
import { layout, type Viewer } from './layout';

const shown = (value: unknown) => (value === undefined ? html`<span class="muted">absent</span>` : isolated(typeof value === 'string' ? value : JSON.stringify(value)));

export function conflictsPage(viewer: Viewer, rows: ConflictRow[]): string {
  return layout({
    title: 'Conflicts',
    section: 'conflicts',
    viewer,
    body: html`<h1>Conflicts</h1>
<p class="muted">Redeliveries whose body differed from the stored notification with the same dedup key: acked, never forwarded.</p>
<table>
  <thead><tr><th>id</th><th>received</th><th>event</th><th>shopOrderNo</th><th>from</th></tr></thead>
  <tbody>${rows.length === 0
    ? html`<tr><td colspan="5" class="muted">No conflicts.</td></tr>`
    : rows.map((row) => html`<tr><td><a href="/console/conflicts/${row.id}">${row.id}</a></td><td class="nowrap">${kstTime(row.receivedAt)}</td>
    <td><a class="mono" href="/console/events/${encodeURIComponent(row.eventId)}">${row.eventId}</a></td><td class="mono">${isolated(row.event.shopOrderNo)}</td><td class="mono">${row.sourceIp}</td></tr>`)}</tbody>
</table>`,
  });
}

/** What one side shows for a field it does not hold: pruned is not the same as absent. */
const side = (value: unknown, prunedAt: string | null) => (prunedAt !== null && value === undefined ? html`<span class="muted">pruned</span>` : shown(value));

/** Every field of both bodies, masked; the ones that differ are marked when both bodies are there to compare. */
export function conflictPage(viewer: Viewer, conflict: ConflictRow, stored: EventDetail | null, comparison: ConflictComparison): string {
  const { storedPrunedAt, conflictPrunedAt, fields, differing } = comparison;
  const differs = new Set((differing ?? []).map((change) => change.field));
  return layout({
    title: `Conflict ${conflict.id}`,
    section: 'conflicts',
    viewer,
    body: html`<h1>Conflict ${conflict.id}</h1>
<p>The gateway sent <a class="mono" href="/console/events/${encodeURIComponent(conflict.eventId)}">${conflict.eventId}</a> again on ${kstTime(conflict.receivedAt)}
from <span class="mono">${conflict.sourceIp}</span> with a different body.${differing === null ? '' : html` ${differs.size} field(s) differ.`}</p>
${stored ? '' : html`<p class="error">The stored event is gone.</p>`}
${storedPrunedAt === null ? '' : html`<p class="muted">The stored body was pruned by retention on ${kstTime(storedPrunedAt)} (RETENTION_DAYS); its dedup key and hash are kept, its fields are not, so they cannot be compared.</p>`}
${conflictPrunedAt === null ? '' : html`<p class="muted">The conflicting body was pruned by retention on ${kstTime(conflictPrunedAt)} (RETENTION_DAYS); only its time, source and dedup key are kept.</p>`}
${fields.length === 0 ? '' : html`<table class="diff">
  <thead><tr><th>field</th><th>stored (${stored ? kstTime(stored.receivedAt) : '—'})</th><th>conflicting (${kstTime(conflict.receivedAt)})</th></tr></thead>
  <tbody>${fields.map(maskChange).map((change) => html`<tr class="${differs.has(change.field) ? 'differs' : ''}">
    <th class="mono">${change.field}${differs.has(change.field) ? html` <span class="badge dead">differs</span>` : ''}</th>
    <td class="mono">${side(change.stored, storedPrunedAt)}</td><td class="mono">${side(change.conflicting, conflictPrunedAt)}</td></tr>`)}</tbody>
</table>`}`,
  });
}
