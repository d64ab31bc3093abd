import { dayProblem } from '../calendar-day';
import { EMPTY, type ExportCell } from './export-cell';

/**
 * A KST day (`2026-12-02`) as a date cell: an Excel date in the .xlsx, so a column of days sorts,
 * filters and subtracts as dates; anything that is not a calendar day is written empty.
 */
export function dateCell(day: string): ExportCell {
  return dayProblem(day) === null ? { kind: 'date', day } : EMPTY;
}
