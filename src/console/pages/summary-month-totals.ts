import { currencyTotals } from '../../ledger/summary/currency-totals';
import { adjustedLines } from '../../ledger/summary/summary-lines';
import type { CountAmount, SummaryDay } from '../../ledger/summary/summary-days';
import { html, type SafeHtml } from '../html';
import type { wordsOf } from './layout';
import { money } from './money';
import { simulatedMark } from './order-status-badge';

/** The simulator's orders of the month, apart and labelled: their payments and their net, in none of the totals above. */
function simulatedTotals(t: ReturnType<typeof wordsOf>, totals: readonly SummaryDay[]): SafeHtml | '' {
  const any = totals.some(({ simulated: s }) => s.payments.count + s.cancels.count + s.deposits.count + s.depositCancels.count + s.refundsFailed.count > 0);
  if (!any) return '';
  return html`<tr class="simulated-money"><th>${t('summary.row.simulated')}${simulatedMark(t, { simulated: true })}</th>${totals.map((d) =>
    html`<td class="num">${t('summary.count', { count: d.simulated.payments.count + d.simulated.deposits.count })}</td><td class="num">${money(t, d.simulated.net, d.currency)}</td>`)}</tr>`;
}

/**
 * The month's totals, one column per currency (won and dollars are never added together): the
 * sums of the days above, as the month export's total lines give them, so the calendar's cells
 * need not be added by hand, money that arrived for closed days among them (as the export's
 * adjustment lines). The simulator's orders are a line of their own below the net.
 */
export function monthTotals(t: ReturnType<typeof wordsOf>, days: readonly SummaryDay[]): SafeHtml | '' {
  const totals = currencyTotals(adjustedLines(days));
  if (totals.length === 0) return '';
  const figure = (label: string, of: (d: SummaryDay) => CountAmount) => html`<tr><th>${label}</th>${totals.map((d) =>
    html`<td class="num">${t('summary.count', { count: of(d).count })}</td><td class="num">${money(t, of(d).amount, d.currency)}</td>`)}</tr>`;
  return html`<h2>${t('summary.monthTotals')}</h2>
<div class="table-wrap"><table class="month-totals" aria-label="${t('summary.monthTotals')}">
  <thead><tr><th>${t('summary.col.figure')}</th>${totals.map((d) => html`<th colspan="2">${d.currency}</th>`)}</tr></thead>
  <tbody>
    ${figure(t('summary.row.payments'), (d) => d.payments)}
    ${figure(t('summary.row.cancels'), (d) => d.cancels)}
    ${figure(t('summary.row.deposits'), (d) => d.deposits)}
    ${figure(t('summary.row.depositCancels'), (d) => d.depositCancels)}
    <tr class="total"><th>${t('summary.row.net')}</th>${totals.map((d) => html`<td></td><td class="num">${money(t, d.net, d.currency)}</td>`)}</tr>
    ${simulatedTotals(t, totals)}
  </tbody>
</table></div>`;
}
