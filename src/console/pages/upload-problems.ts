import type { FileProblem } from '../../reconciliation/file/gateway-rows';
import { html, isolated, type SafeHtml } from '../html';
import type { MessageKey } from '../i18n/catalogues';
import type { Translator } from '../i18n/translator';

/** The reader's problem codes said in the page's language; a code without words here shows the reader's own sentence. */
const PROBLEMS: Readonly<Record<string, MessageKey>> = {
  blank_row: 'upload.problem.blank_row', totals_row: 'upload.problem.totals_row', duplicate_row: 'upload.problem.duplicate_row',
  no_rows: 'upload.problem.no_rows', missing_column: 'upload.problem.missing_column', formula: 'upload.problem.formula',
  encoding: 'upload.problem.encoding', too_large: 'upload.problem.too_large', too_many_rows: 'upload.problem.too_many_rows',
  unreadable_file: 'upload.problem.unreadable_file', empty_cell: 'upload.problem.empty_cell', unreadable_cell: 'upload.problem.unreadable_cell',
  unreadable_amount: 'upload.problem.unreadable_amount', unreadable_time: 'upload.problem.unreadable_time',
  too_many_days: 'upload.problem.too_many_days',
};

/** A list of problems, each with its row and column (the file's header text, shown as text) and its code small beside it. */
export function problemList(t: Translator, problems: readonly FileProblem[], missing: readonly string[] = []): SafeHtml {
  return html`<table class="problems"><thead><tr><th>${t('upload.line')}</th><th>${t('upload.column')}</th><th>${t('upload.what')}</th></tr></thead><tbody>${problems.map((problem) => html`<tr>
<td>${problem.line === null ? '—' : t.number(problem.line)}</td>
<td>${problem.column === null ? '—' : isolated(problem.column)}</td>
<td>${problemText(t, problem, missing)} <code class="muted">${problem.code}</code></td></tr>`)}</tbody></table>`;
}

function problemText(t: Translator, problem: FileProblem, missing: readonly string[]): SafeHtml | string {
  const key = PROBLEMS[problem.code];
  if (key === undefined) return isolated(problem.message);
  if (problem.code === 'missing_column') return t(key, { fields: missing.map((field) => fieldName(t, field)).join(', ') || '—' });
  return t(key);
}

/** A row field by its name in the page's language (`pgCno` → 거래번호), the code beside where a table shows it. */
export function fieldName(t: Translator, field: string): string {
  const key = `upload.field.${field}` as MessageKey;
  const text = t(key);
  return text === key ? field : text;
}
