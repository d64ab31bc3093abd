import type { EventRow } from '../../store/store';
import { EVENT_TYPE_OPTIONS, STATE_OPTIONS, filterQuery, type ParsedFilter } from '../event-filter';
import { kstTime } from '../format';
import { html, isolated } from '../html';
import { actionButton, layout, type Viewer } from './layout';

export function stateBadge(state: string) {
  return html`<span class="badge ${state}">${state}</span>`;
}

function select(name: string, label: string, options: string[], value: string) {
  return html`<label>${label}<select name="${name}"><option value="">any</option>${options.map(
    (option) => html`<option value="${option}"${option === value ? html` selected` : ''}>${option}</option>`,
  )}</select></label>`;
}

export function eventsPage(viewer: Viewer, filter: ParsedFilter, rows: EventRow[], hasNext: boolean, notice: string | null): string {
  const { form, page } = filter;
  return layout({
    title: 'Events',
    section: 'events',
    viewer,
    notice,
    body: html`<h1>Events</h1>
<form method="get" action="/console/events" class="filters card" role="search">
  <label class="grow">Search<input name="q" type="search" value="${form.q}" placeholder="shopOrderNo, pgCno or event id"></label>
  ${select('type', 'Type', EVENT_TYPE_OPTIONS, form.type)}
  ${select('state', 'State', STATE_OPTIONS, form.state)}
  <label>From (KST)<input name="from" type="date" value="${form.from}"></label>
  <label>To (KST)<input name="to" type="date" value="${form.to}"></label>
  <button type="submit" class="primary">Apply</button>
  ${filter.filtered ? html`<a href="/console/events" class="button">Clear</a>` : ''}
</form>
${filter.filtered && (form.state === '' || form.state === 'dead')
  ? html`<div class="actions">${actionButton(viewer, '/console/events/requeue-dead', 'Requeue all dead', { ...form }, 'danger')}
  <span class="muted">sends every dead event matching this filter to the queue again</span></div>`
  : ''}
<table>
  <thead><tr><th>received</th><th>event</th><th>type</th><th>shopOrderNo</th><th>pgCno</th><th>state</th><th class="num">attempts</th><th class="num">redeliveries</th></tr></thead>
  <tbody>${rows.length === 0
    ? html`<tr><td colspan="8" class="muted">No events match.</td></tr>`
    : rows.map((row) => html`<tr>
    <td class="nowrap">${kstTime(row.receivedAt)}</td>
    <td><a href="/console/events/${encodeURIComponent(row.eventId)}" class="mono">${row.eventId}</a></td>
    <td class="nowrap">${row.type}</td><td class="mono">${isolated(row.shopOrderNo)}</td><td class="mono">${isolated(row.pgCno)}</td>
    <td>${stateBadge(row.status)}</td><td class="num">${row.attempts}</td><td class="num">${row.redeliveries}</td></tr>`)}</tbody>
</table>
<nav class="pager">
  ${page > 1 ? html`<a href="/console/events${filterQuery(form, page - 1)}">← Newer</a>` : ''}
  <span class="muted">page ${page}</span>
  ${hasNext ? html`<a href="/console/events${filterQuery(form, page + 1)}">Older →</a>` : ''}
</nav>`,
  });
}
