import type { FileProblem } from './gateway-rows';

/** One cell as a file gives it: text from a CSV, a number, a date or text from a workbook. */
export type Cell = string | number | Date | null;

export interface GridRow {
  /** The row number a person sees in the spreadsheet (1-based, the title rows counted). */
  line: number;
  /** The row's cells, column A first. */
  cells: Cell[];
}

/** A merged range, 1-based rows and 0-based columns like `GridRow.cells`. */
export interface MergedRange {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** A file's first sheet as rows of cells, whatever its format, and what made it unreadable. */
export interface CellGrid {
  rows: GridRow[];
  merges: MergedRange[];
  problems: FileProblem[];
}

/** A column's spreadsheet letters (0 → A, 26 → AA), for a problem that names a cell. */
export function columnLetters(column: number): string {
  let letters = '';
  for (let rest = column + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

export function isBlankCell(cell: Cell | undefined): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}
