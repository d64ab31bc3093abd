import { maskChange, type FieldChange } from '../../operator/field-diff';
import type { ConflictRow, EventDetail } from '../../store/store';
import { kstTime } from '../format';
import { html } from '../html';
import { layout, type Viewer } from './layout';

const shown = (value: unknown) => (value === undefined ? html`<span class="muted">absent</span>` : typeof value === 'string' ? value : JSON.stringify(value));

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
    <td><a class="mono" href="/console/events/${encodeURIComponent(row.eventId)}">${row.eventId}</a></td><td class="mono">${row.event.shopOrderNo ?? ''}</td><td class="mono">${row.sourceIp}</td></tr>`)}</tbody>
</table>`,
  });
}

/** Every field of both bodies, masked; the ones that differ are marked. */
export function conflictPage(viewer: Viewer, conflict: ConflictRow, stored: EventDetail | null, fields: FieldChange[], differing: Set<string>): string {
  return layout({
    title: `Conflict ${conflict.id}`,
    section: 'conflicts',
    viewer,
    body: html`<h1>Conflict ${conflict.id}</h1>
<p>The gateway sent <a class="mono" href="/console/events/${encodeURIComponent(conflict.eventId)}">${conflict.eventId}</a> again on ${kstTime(conflict.receivedAt)}
from <span class="mono">${conflict.sourceIp}</span> with a different body. ${differing.size} field(s) differ.</p>
${stored ? '' : html`<p class="error">The stored event is gone.</p>`}
<table class="diff">
  <thead><tr><th>field</th><th>stored (${stored ? kstTime(stored.receivedAt) : '—'})</th><th>conflicting (${kstTime(conflict.receivedAt)})</th></tr></thead>
  <tbody>${fields.map(maskChange).map((change) => html`<tr class="${differing.has(change.field) ? 'differs' : ''}">
    <th class="mono">${change.field}${differing.has(change.field) ? html` <span class="badge dead">differs</span>` : ''}</th>
    <td class="mono">${shown(change.stored)}</td><td class="mono">${shown(change.conflicting)}</td></tr>`)}</tbody>
</table>`,
  });
}
