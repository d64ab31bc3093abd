import type { MoneyFigures, SummaryDay } from '../../ledger/summary/summary-days';
import { html } from '../html';
import { exportForm } from './export-form';
import { layout, type Viewer, wordsOf } from './layout';
import { money } from './money';
import { simulatedMark } from './order-status-badge';
import { monthTotals } from './summary-month-totals';

export interface SummaryMonthView {
  /** `YYYY-MM`, and the month before and after it. */
  month: string;
  previous: string;
  next: string;
  /** Today in Korea (`YYYY-MM-DD`): its cell is marked. */
  today: string;
  mallId: string;
  days: SummaryDay[];
  /** KST days on which a discrepancy still open was opened. */
  openDays: ReadonlySet<string>;
}

export const summaryDayHref = (day: string, mallId: string) => `/console/summary/${day}${mallId ? `?${new URLSearchParams({ mall: mallId }).toString()}` : ''}`;
const monthHref = (month: string, mallId: string) => `/console/summary?${new URLSearchParams({ month, ...(mallId ? { mall: mallId } : {}) }).toString()}`;

/** A month as a calendar: each day's net per currency (all malls added up only within a currency), open discrepancies marked. */
export function summaryMonthPage(viewer: Viewer, view: SummaryMonthView): string {
  const t = wordsOf(viewer);
  const [year, month] = view.month.split('-').map(Number) as [number, number];
  const first = Date.UTC(year, month - 1, 1);
  const length = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const lead = new Date(first).getUTCDay();
  const nets = netsByDay(view.days);
  const simulated = simulatedNetsByDay(view.days);
  const closedDays = new Set(view.days.filter((d) => d.closed).map((d) => d.date));
  const cells = [...Array.from({ length: lead }, () => null), ...Array.from({ length }, (_, i) => `${view.month}-${String(i + 1).padStart(2, '0')}`)];
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks = Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
  const label = t('summary.monthLabel', { year: String(year), month: String(month) });
  return layout({
    title: `${t('summary.title')} · ${label}`,
    section: 'summary',
    viewer,
    body: html`<h1>${t('summary.title')} <span class="muted">${label}</span></h1>
<p class="muted">${t('summary.intro')}</p>
<form method="get" action="/console/summary" class="filters card">
  <input type="hidden" name="month" value="${view.month}">
  <label>${t('summary.mall')}<input name="mall" value="${view.mallId}" placeholder="${t('summary.everyMall')}"></label>
  <button type="submit" class="primary">${t('common.apply')}</button>
</form>
<nav class="pager"><a href="${monthHref(view.previous, view.mallId)}">${t('summary.previous')}</a> <a href="${monthHref(view.today.slice(0, 7), view.mallId)}">${t('summary.thisMonth')}</a> <a href="${monthHref(view.next, view.mallId)}">${t('summary.next')}</a></nav>
<div class="table-wrap"><table class="calendar" aria-label="${t('summary.calendar')}">
  <thead><tr>${[0, 1, 2, 3, 4, 5, 6].map((d) => html`<th>${t(`summary.weekday.${d}` as 'summary.weekday.0')}</th>`)}</tr></thead>
  <tbody>${weeks.map((week) => html`<tr>${week.map((day) => (day === null ? html`<td class="blank"></td>` : html`<td class="${day === view.today ? 'today' : ''}" data-day="${day}">
    <a class="day-no" href="${summaryDayHref(day, view.mallId)}">${String(Number(day.slice(8)))}</a>${closedDays.has(day) ? html` <span class="badge closed-mark">${t('summary.closedMark')}</span>` : ''}${view.openDays.has(day) ? html` <span class="open-mark" title="${t('summary.openMark')}" aria-label="${t('summary.openMark')}">●</span>` : ''}
    ${[...(nets.get(day) ?? new Map<string, number>())].map(([currency, net]) => html`<div class="net" title="${t('summary.netOf', { amount: t.money(net, currency) })}">${money(t, net, currency)}</div>`)}
    ${simulated.has(day) ? html`<div class="simulated-day" title="${t('summary.simulatedMark', { amount: [...simulated.get(day)!].map(([currency, net]) => t.money(net, currency)).join(', ') })}">${simulatedMark(t, { simulated: true })}</div>` : ''}
  </td>`))}</tr>`)}</tbody>
</table></div>
${view.days.length === 0 ? html`<p class="muted">${t('summary.monthEmpty')}</p>` : monthTotals(t, view.days)}
${exportForm(viewer, 'summary', { mall: view.mallId }, { from: `${view.month}-01`, to: new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10) })}`,
  });
}

/** Day → currency → net, summed over the malls shown (never across currencies); days with nothing booked left out. */
function netsByDay(days: readonly SummaryDay[], of: (d: SummaryDay) => MoneyFigures = (d) => d): Map<string, Map<string, number>> {
  const nets = new Map<string, Map<string, number>>();
  for (const d of days) {
    const figures = of(d);
    const real = figures === d;
    const booked = figures.payments.count + figures.cancels.count + figures.deposits.count + figures.depositCancels.count + figures.refundsFailed.count + (real ? d.adjustments?.length ?? 0 : 0);
    if (booked === 0) continue;
    const day = nets.get(d.date) ?? new Map<string, number>();
    // A day's cell is what arrived that day: money booked on it for closed days included.
    day.set(d.currency, (day.get(d.currency) ?? 0) + (real ? d.netWithAdjustments ?? d.net : figures.net));
    nets.set(d.date, day);
  }
  return nets;
}

/** The same for the simulator's orders: a day with any is marked, their net in the mark's title, in no cell's net. */
function simulatedNetsByDay(days: readonly SummaryDay[]): Map<string, Map<string, number>> {
  return netsByDay(days, (d) => d.simulated);
}
