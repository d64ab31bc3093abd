import type { SummaryDay } from '../../ledger/summary/summary-days';
import { html } from '../html';
import { csrfField, layout, type Viewer, wordsOf } from './layout';
import { money } from './money';
import { summaryDayHref } from './summary-month-page';

export interface DayCloseConfirmView {
  action: 'close' | 'reopen';
  day: string;
  /** The close's mall, '' for every mall. */
  mallId: string;
  /** The figures the day shows now: what a close keeps. */
  days: SummaryDay[];
}

/** The confirmation before a day is closed or reopened: what changes, the day's net per mall and currency, and the one button that does it. */
export function dayCloseConfirmPage(viewer: Viewer, view: DayCloseConfirmView): string {
  const t = wordsOf(viewer);
  const closing = view.action === 'close';
  const title = t(closing ? 'summary.close.confirmTitle' : 'summary.close.reopenTitle', { date: view.day });
  return layout({
    title,
    section: 'summary',
    viewer,
    body: html`<h1>${title}</h1>
<p>${t(closing ? 'summary.close.confirmIntro' : 'summary.close.reopenIntro')}</p>
<p>${t('summary.close.confirmWhose', { whose: view.mallId || t('summary.close.everyMall') })}</p>
<div class="table-wrap"><table class="confirm-figures"><tbody>${view.days.map((d) => html`<tr><th><span class="mono">${d.mallId}</span> · ${d.currency}</th><td class="num">${money(t, d.netWithAdjustments ?? d.net, d.currency)}</td></tr>`)}</tbody></table></div>
<form method="post" action="/console/summary/${view.day}/${view.action}" class="inline">${csrfField(viewer)}
${view.mallId ? html`<input type="hidden" name="mall" value="${view.mallId}">` : ''}<input type="hidden" name="confirm" value="yes">
<button type="submit" class="${closing ? 'primary' : 'danger'}">${t(closing ? 'summary.close.confirmButton' : 'summary.close.reopenButton', { date: view.day })}</button></form>
<a href="${summaryDayHref(view.day, view.mallId)}">${t('summary.close.cancel')}</a>`,
  });
}
