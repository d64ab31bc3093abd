import { identifierText } from './cell-values';
import { isBlankCell, type Cell, type CellGrid, type GridRow } from './cell-grid';
import type { FoundHeader } from './find-header';
import type { FileProblem } from './gateway-rows';
import { normaliseHeader } from './header-names';

/** The words portals put in a totals row: such a row sums the others and is no transaction. */
const TOTALS = /^(합계|소계|총계|총합계|누계|total|subtotal|sum)/;
/** Any cell that could say one of them, checked before the cell is normalised. */
const MAY_SAY_TOTALS = /^[\s\p{P}\p{S}]*[합소총누tsｔｓＴＳ]/iu;

/** A data row, with its cells read by field name. */
export interface DataRow {
  line: number;
  cell(field: string): Cell | undefined;
  /** The field's header text, for a problem that names the column. */
  header(field: string): string;
}

/** Which fields say a row is a transaction: its amounts, and when it happened. */
export interface RowShape {
  amounts: readonly string[];
  times: readonly string[];
}

/**
 * The rows under the header, each either read, or passed over: blank (nothing in the table's
 * columns: a note beside the table is no transaction) or a totals row (a cell that says
 * 합계/소계/Total, or amounts with neither a transaction number nor a time). A row with a time
 * and no number is a transaction missing its number, and is read so that it is refused.
 */
export function dataRows(grid: CellGrid, header: FoundHeader, shape: RowShape): { rows: DataRow[]; skipped: FileProblem[] } {
  const mapped = Object.values(header.columns) as number[];
  const rows: DataRow[] = [];
  const skipped: FileProblem[] = [];
  for (const row of grid.rows.slice(header.lastHeaderRow + 1)) {
    if (mapped.every((column) => isBlankCell(row.cells[column] ?? null))) {
      skipped.push({ code: 'blank_row', line: row.line, column: null, message: `row ${row.line} is blank` });
      continue;
    }
    const data = dataRow(row, header);
    const has = (field: string): boolean => !isBlankCell(data.cell(field) ?? null);
    if (isTotalsRow(row) || (!has('pgCno') && shape.amounts.some(has) && !shape.times.some(has))) {
      skipped.push({ code: 'totals_row', line: row.line, column: null, message: `row ${row.line} is a totals row` });
      continue;
    }
    rows.push(data);
  }
  return { rows, skipped };
}

function isTotalsRow(row: GridRow): boolean {
  return row.cells.some((cell) => typeof cell === 'string' && MAY_SAY_TOTALS.test(cell) && TOTALS.test(normaliseHeader(cell)));
}

function dataRow(row: GridRow, header: FoundHeader): DataRow {
  return {
    line: row.line,
    cell: (field) => {
      const column = header.columns[field];
      return column === undefined ? undefined : (row.cells[column] ?? null);
    },
    header: (field) => {
      const column = header.columns[field];
      return column === undefined ? field : header.headers[column] ?? field;
    },
  };
}

/** Every row once: the same transaction twice means the file was joined or edited, and which copy counts is unknown. */
function duplicateProblems(rows: readonly { line: number; pgCno: string; cancelPgCno: string | null; kind?: string }[]): FileProblem[] {
  const firstLine = new Map<string, number>();
  const problems: FileProblem[] = [];
  for (const row of rows) {
    const key = `${row.pgCno}\u0000${row.kind ?? ''}\u0000${row.cancelPgCno ?? ''}`;
    const first = firstLine.get(key);
    if (first === undefined) firstLine.set(key, row.line);
    else {
      problems.push({
        code: 'duplicate_row',
        line: row.line,
        column: null,
        message: `rows ${first} and ${row.line} are the same transaction (${row.pgCno}${row.cancelPgCno ? ` / ${row.cancelPgCno}` : ''})`,
      });
    }
  }
  return problems;
}

export function cellProblem(row: DataRow, field: string, code: string, what: string): FileProblem {
  return { code, line: row.line, column: row.header(field), message: `row ${row.line}, column 「${row.header(field)}」: ${what}` };
}

/** Each row read by `read`: the rows that read, every problem of those that did not, and the duplicates among the read. */
export function readEach<Row extends { line: number; pgCno: string; cancelPgCno: string | null; kind?: string }>(
  rows: readonly DataRow[], read: (row: DataRow) => { row: Row } | { problems: FileProblem[] },
): { rows: Row[]; problems: FileProblem[] } {
  const readRows: Row[] = [];
  const problems: FileProblem[] = [];
  for (const row of rows) {
    const result = read(row);
    if ('problems' in result) problems.push(...result.problems);
    else readRows.push(result.row);
  }
  return { rows: readRows, problems: [...problems, ...duplicateProblems(readRows)] };
}

/**
 * A row's transaction number and cancel number, as text; a problem for each that cannot be read
 * (a number cell too long for a spreadsheet's digits), and for a missing transaction number.
 */
export function transactionNumbers(row: DataRow, problems: FileProblem[]): { pgCno: string | null | undefined; cancelPgCno: string | null | undefined } {
  const pgCno = identifierText(row.cell('pgCno'));
  if (pgCno === null) problems.push(cellProblem(row, 'pgCno', 'empty_cell', 'the transaction number is empty'));
  if (pgCno === undefined) problems.push(cellProblem(row, 'pgCno', 'unreadable_cell', 'the transaction number is not readable as text (a number too long for a spreadsheet cell)'));
  const cancelPgCno = identifierText(row.cell('cancelPgCno'));
  if (cancelPgCno === undefined) problems.push(cellProblem(row, 'cancelPgCno', 'unreadable_cell', 'the cancel number is not readable as text'));
  return { pgCno, cancelPgCno };
}
