import type { DeliveryReadiness } from '../../admin/publisher-readiness';
import { maskFreeText } from '../../observability/mask';
import type { Backlog, EventCounts, ProblemCounts, RetentionRun } from '../../store/store';
import type { ActivitySeries } from '../activity-series';
import { ageText, kstTime } from '../format';
import { html } from '../html';
import { layout, type Viewer } from './layout';

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
function publisherSection(delivery: DeliveryReadiness | null) {
  if (!delivery) return '';
  const { publisher, relay } = delivery;
  return html`<section class="card">
  <h2>Publisher</h2>
  <p>${publisher.kind} publisher: <strong class="${publisher.ok ? 'status-ok' : 'error'}">${publisher.connected ? 'connected' : 'disconnected'}</strong>${
    publisher.detail && publisher.detail !== publisher.lastError ? html` <span class="mono muted">${maskFreeText(publisher.detail)}</span>` : ''}; ${
    publisher.lastDeliveredAt ? html`last delivery ${kstTime(publisher.lastDeliveredAt)}` : 'no delivery yet'}.</p>
  ${publisher.lastError
    ? html`<p class="error" role="alert">Last error: <span class="mono">${maskFreeText(publisher.lastError)}</span>. Pending events stay stored and are retried with back-off, in order.</p>`
    : ''}
  ${relay?.storeError
    ? html`<p class="error" role="alert">The database refuses the relay: <span class="mono">${maskFreeText(relay.storeError)}</span>.${
      relay.confirmedUnmarked > 0 ? html` ${relay.confirmedUnmarked} event(s) the queue confirmed wait to be recorded as delivered (they are not published again).` : ''}</p>`
    : ''}
</section>`;
}

function tile(label: string, value: string | number, href: string | null, tone = '') {
  const inner = html`<span class="tile-value">${value}</span><span class="tile-label">${label}</span>`;
  return href ? html`<a class="tile ${tone}" href="${href}">${inner}</a>` : html`<div class="tile ${tone}">${inner}</div>`;
}

export function overviewPage(viewer: Viewer, data: OverviewData): string {
  const { counts, backlog, problems, activity, lastRetention } = data;
  return layout({
    title: 'Overview',
    section: 'overview',
    viewer,
    scripts: ['/console/assets/uPlot.iife.min.js', '/console/assets/activity-chart.js'],
    body: html`<h1>Overview</h1>
<section class="tiles">
  ${tile('pending', counts.pending, '/console/events?state=pending', counts.pending > 0 ? 'warn' : '')}
  ${tile('delivered', counts.delivered, '/console/events?state=delivered', 'ok')}
  ${tile('dead', counts.dead, '/console/events?state=dead', counts.dead > 0 ? 'bad' : '')}
  ${tile('oldest pending', ageText(backlog.oldestPendingAgeMs), null, backlog.oldestPendingAgeMs !== null && backlog.oldestPendingAgeMs > 60_000 ? 'warn' : '')}
  ${tile('rejections, 24 h', problems.rejections, '/console/rejections', problems.rejections > 0 ? 'bad' : '')}
  ${tile('conflicts, 24 h', problems.conflicts, '/console/conflicts', problems.conflicts > 0 ? 'warn' : '')}
  ${data.openDiscrepancies === null || data.openDiscrepancies === undefined ? '' : tile('open discrepancies', data.openDiscrepancies, '/console/discrepancies', data.openDiscrepancies > 0 ? 'bad' : '')}
  ${data.ledgerLagMs === null || data.ledgerLagMs === undefined ? '' : tile('ledger lag', ageText(data.ledgerLagMs), null, data.ledgerLagMs > 60_000 ? 'warn' : '')}
  ${data.failedCommands === null ? '' : tile('failed commands', data.failedCommands, '/console/commands', data.failedCommands > 0 ? 'bad' : '')}
</section>
${publisherSection(data.delivery)}
<section class="card">
  <h2>Notifications per hour, last 24 h</h2>
  <div id="activity-chart" class="chart" data-src="/console/api/activity" aria-hidden="true"></div>
  <table class="compact">
    <thead><tr><th>type</th><th class="num">last 24 h</th></tr></thead>
    <tbody>${activity.series.length === 0
      ? html`<tr><td colspan="2" class="muted">No notifications in the last 24 hours.</td></tr>`
      : activity.series.map((s) => html`<tr><td><a href="/console/events?type=${s.type}">${s.type}</a></td><td class="num">${s.total}</td></tr>`)}</tbody>
  </table>
</section>
<section class="card">
  <h2>Retention</h2>
  <p>Raw bodies and event data of delivered events, rejections and conflicts are kept for <strong>${data.retentionDays} days</strong>
  (RETENTION_DAYS), then removed; dedup keys and body hashes stay, so a late resend is still a duplicate.</p>
  <p>${lastRetention
    ? html`Last run ${kstTime(lastRetention.ranAt)} removed ${lastRetention.events} event(s), ${lastRetention.rejections} rejection(s) and ${lastRetention.conflicts} conflict(s) received before ${kstTime(lastRetention.cutoff)}.`
    : html`<span class="muted">The policy has not run yet.</span>`}</p>
</section>`,
  });
}
