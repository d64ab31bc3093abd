import { html, type SafeHtml } from '../html';
import { ACTING_ROLE, roleAllows } from '../roles';
import { type Viewer, wordsOf } from './layout';

export type ExportList = 'orders' | 'events' | 'discrepancies' | 'summary';

/**
 * The list's downloads (.xlsx, CSV in UTF-8, and CSV in CP949: what a Korean Windows opens without
 * asking, where LibreOffice ignores the UTF-8 file's BOM) with the page's filters and a date range, for an
 * operator and above (a viewer's request would be refused, so a viewer sees no button).
 * A GET form: a download changes nothing, and the dates can be changed before it.
 */
export function exportForm(viewer: Viewer, list: ExportList, filters: Record<string, string>, range: { from: string; to: string }): SafeHtml | '' {
  if (!roleAllows(viewer.role, ACTING_ROLE)) return '';
  const t = wordsOf(viewer);
  return html`<form method="get" action="/console/exports/${list}.xlsx" class="filters card exports" data-export="${list}">
  ${Object.entries(filters).filter(([, value]) => value !== '').map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
  <strong>${t('exports.label')}</strong>
  <label>${t('common.from')}<input name="from" type="date" value="${range.from}"></label>
  <label>${t('common.to')}<input name="to" type="date" value="${range.to}"></label>
  <button type="submit" formaction="/console/exports/${list}.xlsx">${t('exports.xlsx')}</button>
  <button type="submit" formaction="/console/exports/${list}.csv">${t('exports.csv')}</button>
  <button type="submit" formaction="/console/exports/${list}.csv" name="encoding" value="cp949">${t('exports.csvKorean')}</button>
  <span class="muted">${t('exports.hint')} ${t('exports.csvHint')}</span>
</form>`;
}
