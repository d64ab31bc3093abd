import type { EventRow } from '../../store/store';
import { eventTypeName, eventTypeText } from './event-type-name';
import { EVENT_TYPE_OPTIONS, STATE_OPTIONS, filterQuery, type ParsedFilter } from '../event-filter';
import { html, isolated, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';
import { actionButton, layout, type Viewer, wordsOf } from './layout';
import { exportForm } from './export-form';
import { codeBeside } from './order-status-badge';
import { when } from './when';

/** An event's delivery state: its name in the page's language, the code beside it where they differ. */
export function stateBadge(state: string, t?: Translator): SafeHtml {
  const name = t && (STATE_OPTIONS as string[]).includes(state) ? t(`eventState.${state as 'pending' | 'delivered' | 'dead'}`) : state;
  return html`<span class="badge ${state}">${name}</span>${codeBeside(name, state)}`;
}

function select(t: Translator, name: string, label: string, options: Array<{ value: string; label: string }>, value: string) {
  return html`<label>${label}<select name="${name}"><option value="">${t('common.any')}</option>${options.map(
    (option) => html`<option value="${option.value}"${option.value === value ? html` selected` : ''}>${option.label}</option>`,
  )}</select></label>`;
}

export function eventsPage(viewer: Viewer, filter: ParsedFilter, rows: EventRow[], hasNext: boolean, notice: string | null): string {
  const t = wordsOf(viewer);
  const { form, page } = filter;
  return layout({
    title: t('events.title'),
    section: 'events',
    viewer,
    notice,
    body: html`<h1>${t('events.title')}</h1>
<form method="get" action="/console/events" class="filters card" role="search">
  <label class="grow">${t('events.search')}<input name="q" type="search" value="${form.q}" placeholder="${t('events.searchPlaceholder')}"></label>
  ${select(t, 'type', t('events.type'), EVENT_TYPE_OPTIONS.map((type) => ({ value: type, label: eventTypeText(t, type) })), form.type)}
  ${select(t, 'state', t('events.state'), STATE_OPTIONS.map((state) => ({ value: state, label: t(`eventState.${state}`) })), form.state)}
  <label>${t('common.from')}<input name="from" type="date" value="${form.from}"></label>
  <label>${t('common.to')}<input name="to" type="date" value="${form.to}"></label>
  <button type="submit" class="primary">${t('common.apply')}</button>
  ${filter.filtered ? html`<a href="/console/events" class="button">${t('common.clear')}</a>` : ''}
</form>
${filter.filtered && (form.state === '' || form.state === 'dead')
  ? html`<div class="actions">${actionButton(viewer, '/console/events/requeue-dead', t('events.requeueAllDead'), { ...form }, 'danger')}
  <span class="muted">${t('events.requeueAllDeadHint')}</span></div>`
  : ''}
${exportForm(viewer, 'events', { q: form.q, type: form.type, state: form.state }, { from: form.from, to: form.to })}
<div class="table-wrap"><table>
  <thead><tr><th>${t('events.col.received')}</th><th>${t('events.col.type')} <span class="muted">${t('events.col.event')}</span></th><th>${t('events.col.shopOrderNo')}</th><th>${t('events.col.pgCno')}</th><th>${t('events.col.state')}</th><th class="num">${t('events.col.attempts')}</th><th class="num">${t('events.col.redeliveries')}</th></tr></thead>
  <tbody>${rows.length === 0
    ? html`<tr><td colspan="7" class="muted">${t('events.noneMatch')}</td></tr>`
    : rows.map((row) => html`<tr>
    <td>${when(t, row.receivedAt)}</td>
    <td>${eventTypeName(t, row.type, 'nowrap code')}<br><a href="/console/events/${encodeURIComponent(row.eventId)}" class="mono">${row.eventId}</a></td><td class="mono order-no">${isolated(row.shopOrderNo)}</td><td class="mono nowrap">${isolated(row.pgCno)}</td>
    <td>${stateBadge(row.status, t)}</td><td class="num">${row.attempts}</td><td class="num">${row.redeliveries}</td></tr>`)}</tbody>
</table></div>
<nav class="pager">
  ${page > 1 ? html`<a href="/console/events${filterQuery(form, page - 1)}">${t('events.newer')}</a>` : ''}
  <span class="muted">${t('events.page', { page })}</span>
  ${hasNext ? html`<a href="/console/events${filterQuery(form, page + 1)}">${t('events.older')}</a>` : ''}
</nav>`,
  });
}
