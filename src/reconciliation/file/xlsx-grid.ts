import ExcelJS from 'exceljs';
import { columnLetters, type Cell, type CellGrid, type GridRow, type MergedRange } from './cell-grid';
import type { FileProblem } from './gateway-rows';

/**
 * A workbook's sheets as cell grids, in the workbook's order. A merged cell's value is repeated
 * in every cell it covers (exceljs answers a covered cell with its master's value), so a header
 * merged across sub-columns names each of them, and a value merged down a column reaches each row.
 *
 * A formula anywhere is a problem: the portal writes values, so a formula means someone edited
 * the file, and the cached result a formula carries need not be what the formula now says.
 */
export async function xlsxGrids(bytes: Buffer, maxRows: number): Promise<CellGrid[] | { tooManyRows: true } | null> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    return null;
  }
  if (workbook.worksheets.some((sheet) => sheet.rowCount > maxRows)) return { tooManyRows: true };
  return workbook.worksheets.map(sheetGrid);
}

function sheetGrid(sheet: ExcelJS.Worksheet): CellGrid {
  const rows: GridRow[] = [];
  const problems: FileProblem[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const cells: Cell[] = [];
    row.eachCell({ includeEmpty: true }, (cell, columnNumber) => {
      const column = columnNumber - 1;
      if (cell.type === ExcelJS.ValueType.Formula) {
        problems.push({
          code: 'formula',
          line,
          column: `${columnLetters(column)}${line}`,
          message: `cell ${columnLetters(column)}${line} holds a formula: the portal's file holds values only, so this file was edited`,
        });
      }
      cells[column] = plainCell(cell.value);
    });
    for (let column = 0; column < cells.length; column += 1) cells[column] ??= null;
    rows.push({ line, cells });
  });
  return { rows, merges: sheetMerges(sheet), problems };
}

function plainCell(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || value instanceof Date) return value;
  if (typeof value === 'boolean') return String(value);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : null;
  if ('formula' in value || 'sharedFormula' in value) return plainCell((value.result ?? null) as ExcelJS.CellValue);
  if ('error' in value) return String(value.error);
  return null;
}

function sheetMerges(sheet: ExcelJS.Worksheet): MergedRange[] {
  const ranges = (sheet.model as { merges?: string[] }).merges ?? [];
  return ranges.flatMap((range) => {
    const match = /^([A-Z]+)(\d+):([A-Z]+)(\d+)$/.exec(range);
    if (!match) return [];
    return [{ top: Number(match[2]), bottom: Number(match[4]), left: columnIndex(match[1]!), right: columnIndex(match[3]!) }];
  });
}

function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}
