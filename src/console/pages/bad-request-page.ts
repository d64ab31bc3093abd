import type { DayRangeIssue } from '../../calendar-day';
import { html } from '../html';
import type { Translator } from '../i18n/translator';
import { layout, type Section, type Viewer, wordsOf } from './layout';

/** A page asked for with something it cannot read (a day that does not exist, a range backwards): what is wrong, answered 400. */
export function badRequestPage(viewer: Viewer, section: Section, message: string): string {
  const t = wordsOf(viewer);
  return layout({ title: t('badRequest.title'), section, viewer, body: html`<h1>${t('badRequest.title')}</h1><p>${message}</p>` });
}

/** A range's problem in the page's language. */
export function rangeIssueText(t: Translator, issue: DayRangeIssue): string {
  switch (issue.kind) {
    case 'badFrom': return t('range.badFrom', { day: issue.day });
    case 'badTo': return t('range.badTo', { day: issue.day });
    case 'backwards': return t('range.backwards', { from: issue.from, to: issue.to });
    case 'tooLong': return t('range.tooLong', { from: issue.from, to: issue.to, days: issue.days, max: issue.max });
  }
}
