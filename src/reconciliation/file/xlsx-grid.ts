import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { columnLetters, type Cell, type CellGrid, type GridRow, type MergedRange } from './cell-grid';
import type { FileProblem } from './gateway-rows';
import { zipEntryStream } from './zip-entry';

/**
 * A workbook's sheets as cell grids, in the workbook's order, read as a stream (exceljs's
 * streaming reader): a sheet is never held as a workbook model, and reading stops at the first
 * row past `maxRows`. The streaming reader skips merged ranges, so they are read from the
 * sheet's XML afterwards and a merged cell's value repeated into every cell it covers: a header
 * merged across sub-columns names each of them, a value merged down a column reaches each row.
 *
 * A formula anywhere is a problem: the portal writes values, so a formula means someone edited
 * the file, and the cached result a formula carries need not be what the formula now says.
 */
export async function xlsxGrids(bytes: Buffer, maxRows: number): Promise<CellGrid[] | { tooManyRows: true } | null> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'emit',
  });
  const sheets: { id: number; grid: CellGrid }[] = [];
  try {
    for await (const sheet of reader) {
      const grid: CellGrid = { rows: [], merges: [], problems: [] };
      for await (const row of sheet) {
        if (row.number > maxRows) return { tooManyRows: true };
        grid.rows.push(gridRow(row, grid.problems));
      }
      const id = Number((sheet as unknown as { id: string | number }).id);
      grid.merges = await sheetMerges(bytes, id);
      repeatMergedValues(grid);
      sheets.push({ id, grid });
    }
  } catch {
    return null;
  }
  if (sheets.length === 0) return null;
  return sheets.sort((one, other) => one.id - other.id).map((sheet) => sheet.grid);
}

function gridRow(row: ExcelJS.Row, problems: FileProblem[]): GridRow {
  const line = row.number;
  const cells: Cell[] = [];
  row.eachCell({ includeEmpty: true }, (cell, columnNumber) => {
    const column = columnNumber - 1;
    const value = cell.value;
    if (isFormula(value)) {
      const at = `${columnLetters(column)}${line}`;
      problems.push({ code: 'formula', line, column: at, message: `cell ${at} holds a formula: the portal's file holds values only, so this file was edited` });
    }
    cells[column] = plainCell(value);
  });
  for (let column = 0; column < cells.length; column += 1) cells[column] ??= null;
  return { line, cells };
}

function isFormula(value: ExcelJS.CellValue): boolean {
  return typeof value === 'object' && value !== null && !(value instanceof Date) && ('formula' in value || 'sharedFormula' in value);
}

function plainCell(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || value instanceof Date) return value;
  if (typeof value === 'boolean') return String(value);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : null;
  if (isFormula(value)) return plainCell(((value as { result?: unknown }).result ?? null) as ExcelJS.CellValue);
  if ('error' in value) return String(value.error);
  return null;
}

const MERGE_CELL = /<mergeCell\s+ref="([A-Z]+)(\d+):([A-Z]+)(\d+)"/g;

/** The sheet's merged ranges, scanned from its XML as it inflates; a range split across chunks is caught by the carried tail. */
async function sheetMerges(bytes: Buffer, sheetId: number): Promise<MergedRange[]> {
  const stream = zipEntryStream(bytes, `xl/worksheets/sheet${sheetId}.xml`);
  if (!stream) return [];
  const found = new Map<string, MergedRange>();
  let tail = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream as AsyncIterable<string>) {
    const text = tail + chunk;
    for (const match of text.matchAll(MERGE_CELL)) {
      found.set(match[0], { top: Number(match[2]), bottom: Number(match[4]), left: columnIndex(match[1]!), right: columnIndex(match[3]!) });
    }
    tail = text.slice(-64);
  }
  return [...found.values()];
}

/** Within the cells the sheet has: a range drawn over a whole column or row costs no more than the sheet. */
function repeatMergedValues(grid: CellGrid): void {
  const byLine = new Map(grid.rows.map((row) => [row.line, row]));
  const lastLine = grid.rows[grid.rows.length - 1]?.line ?? 0;
  const width = Math.max(0, ...grid.rows.map((row) => row.cells.length));
  for (const range of grid.merges) {
    const master = byLine.get(range.top)?.cells[range.left] ?? null;
    for (let line = range.top; line <= Math.min(range.bottom, lastLine); line += 1) {
      const row = byLine.get(line);
      if (!row) continue;
      for (let column = range.left; column <= Math.min(range.right, width - 1); column += 1) {
        if (line !== range.top || column !== range.left) row.cells[column] = master;
      }
      for (let column = 0; column < row.cells.length; column += 1) row.cells[column] ??= null;
    }
  }
}

function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}
