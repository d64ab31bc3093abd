import type { DeliveryReadiness } from '../../relay/publisher-readiness';
import { EVENT_TYPE_OPTIONS } from '../event-filter';
import { eventTypeName, eventTypeText } from './event-type-name';
import { maskFreeText } from '../../observability/mask';
import type { Backlog, EventCounts, ProblemCounts, RetentionRun } from '../../store/store';
import type { ActivitySeries } from '../activity-series';
import { ageText } from '../format';
import { html, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';
import { layout, type Viewer, wordsOf } from './layout';

export interface OverviewData {
  counts: EventCounts;
  backlog: Backlog;
  problems: ProblemCounts;
  activity: ActivitySeries;
  retentionDays: number;
  lastRetention: RetentionRun | null;
  /** failed + net_cancel_failed commands of the internal API; null where it is not assembled. */
  failedCommands: number | null;
  /** Open discrepancies of the payment ledger; null where it is not assembled. */
  openDiscrepancies?: number | null;
  /** How far the payment ledger's projector is behind the stored notifications; null where it is not assembled. */
  ledgerLagMs?: number | null;
  /** What /readyz says of the publisher and the relay; null where they are not assembled. */
  delivery: DeliveryReadiness | null;
}

/** Why the backlog grows: a queue that is down is the usual answer, and its error says why. */
/** Each event type's name in the page's words, for the chart's legend; none in English, which keeps the codes. */
function typeNames(t: Translator): Record<string, string> {
  return Object.fromEntries(EVENT_TYPE_OPTIONS.map((type) => [type, eventTypeText(t, type)]).filter(([type, name]) => name !== type));
}

/** The publisher's target as /readyz says it; an AMQP target names its exchange, in the page's words. */
function publisherDetail(t: Translator, detail: string): SafeHtml {
  const m = /^(.*) exchange (\S+)$/.exec(detail);
  return m ? t.rich('overview.exchange', { target: m[1], exchange: m[2] }) : html`<span class="mono">${detail}</span>`;
}

function publisherSection(t: Translator, delivery: DeliveryReadiness | null) {
  if (!delivery) return '';
  const { publisher, relay } = delivery;
  return html`<section class="card">
  <h2>${t('overview.publisher')}</h2>
  <p>${publisher.kind === 'none' ? t('overview.noPublisher') : t.rich('overview.publisherState', { kind: t.locale === 'en' ? publisher.kind : html`<code class="code-tag">${publisher.kind}</code>` })}<strong class="${publisher.ok ? 'status-ok' : 'error'}">${publisher.connected ? t('overview.connected') : t('overview.disconnected')}</strong>${
    publisher.detail && publisher.detail !== publisher.lastError ? html` <span class="muted">${publisherDetail(t, maskFreeText(publisher.detail))}</span>` : ''}; ${
    publisher.lastDeliveredAt ? t('overview.lastDelivery', { time: t.time(publisher.lastDeliveredAt) }) : t('overview.noDelivery')}.</p>
  ${publisher.lastError
    ? html`<p class="error" role="alert">${t('overview.lastError')}<span class="mono">${maskFreeText(publisher.lastError)}</span>${t('overview.lastErrorAfter')}</p>`
    : ''}
  ${relay?.storeError
    ? html`<p class="error" role="alert">${t('overview.relayRefused')}<span class="mono">${maskFreeText(relay.storeError)}</span>.${
      relay.confirmedUnmarked > 0 ? t('overview.confirmedUnmarked', { n: relay.confirmedUnmarked }) : ''}</p>`
    : ''}
</section>`;
}

function tile(label: string, value: string | number, href: string | null, tone = '') {
  const inner = html`<span class="tile-value">${value}</span><span class="tile-label">${label}</span>`;
  return href ? html`<a class="tile ${tone}" href="${href}">${inner}</a>` : html`<div class="tile ${tone}">${inner}</div>`;
}

export function overviewPage(viewer: Viewer, data: OverviewData): string {
  const t = wordsOf(viewer);
  const { counts, backlog, problems, activity, lastRetention } = data;
  return layout({
    title: t('overview.title'),
    section: 'overview',
    viewer,
    scripts: ['/console/assets/uPlot.iife.min.js', '/console/assets/activity-chart.js'],
    body: html`<h1>${t('overview.title')}</h1>
<section class="tiles">
  ${tile(t('overview.pending'), counts.pending, '/console/events?state=pending', counts.pending > 0 ? 'warn' : '')}
  ${tile(t('overview.delivered'), counts.delivered, '/console/events?state=delivered', 'ok')}
  ${tile(t('overview.dead'), counts.dead, '/console/events?state=dead', counts.dead > 0 ? 'bad' : '')}
  ${tile(t('overview.oldestPending'), ageText(backlog.oldestPendingAgeMs, t), null, backlog.oldestPendingAgeMs !== null && backlog.oldestPendingAgeMs > 60_000 ? 'warn' : '')}
  ${tile(t('overview.rejections'), problems.rejections, '/console/rejections', problems.rejections > 0 ? 'bad' : '')}
  ${tile(t('overview.conflicts'), problems.conflicts, '/console/conflicts', problems.conflicts > 0 ? 'warn' : '')}
  ${data.openDiscrepancies === null || data.openDiscrepancies === undefined ? '' : tile(t('overview.openDiscrepancies'), data.openDiscrepancies, '/console/discrepancies', data.openDiscrepancies > 0 ? 'bad' : '')}
  ${data.ledgerLagMs === null || data.ledgerLagMs === undefined ? '' : tile(t('overview.ledgerLag'), ageText(data.ledgerLagMs, t), null, data.ledgerLagMs > 60_000 ? 'warn' : '')}
  ${data.failedCommands === null ? '' : tile(t('overview.failedCommands'), data.failedCommands, '/console/commands', data.failedCommands > 0 ? 'bad' : '')}
</section>
${publisherSection(t, data.delivery)}
<section class="card">
  <h2>${t('overview.perHour')}</h2>
  <div id="activity-chart" class="chart" data-src="/console/api/activity" aria-hidden="true" data-label-hour="${t('overview.chart.hour')}"
    data-label-empty="${t('overview.chart.empty')}" data-label-axis="${t('overview.chart.axis')}" data-label-unavailable="${t('overview.chart.unavailable')}" data-type-names="${JSON.stringify(typeNames(t))}"></div>
  <table class="compact">
    <thead><tr><th>${t('overview.col.type')}</th><th class="num">${t('overview.col.last24h')}</th></tr></thead>
    <tbody>${activity.series.length === 0
      ? html`<tr><td colspan="2" class="muted">${t('overview.noActivity')}</td></tr>`
      : activity.series.map((s) => html`<tr><td>${eventTypeText(t, s.type) === s.type ? html`<a class="code" href="/console/events?type=${s.type}">${s.type}</a>` : html`<a href="/console/events?type=${s.type}">${eventTypeName(t, s.type)}</a>`}</td><td class="num">${s.total}</td></tr>`)}</tbody>
  </table>
</section>
<section class="card">
  <h2>${t('overview.retention')}</h2>
  <p>${t.rich('overview.retentionPolicy', { days: data.retentionDays })}</p>
  <p>${lastRetention
    ? t('overview.retentionLast', { ranAt: t.time(lastRetention.ranAt), events: lastRetention.events, rejections: lastRetention.rejections, conflicts: lastRetention.conflicts, cutoff: t.time(lastRetention.cutoff) })
    : html`<span class="muted">${t('overview.retentionNever')}</span>`}</p>
</section>`,
  });
}
