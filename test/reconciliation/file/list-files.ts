import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';

/** A sheet as rows of cells, with the ranges to merge, e.g. `['C4:D4']`; row 1 first. */
export interface SheetSpec {
  name?: string;
  rows: ExcelJS.CellValue[][];
  merges?: string[];
}

/** A real .xlsx, written by exceljs the way a portal's export is opened by a reader. */
export async function workbookFile(...sheets: SheetSpec[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const [index, spec] of sheets.entries()) {
    const sheet = workbook.addWorksheet(spec.name ?? `Sheet${index + 1}`);
    spec.rows.forEach((cells, rowIndex) => {
      cells.forEach((value, column) => {
        if (value !== null && value !== undefined) sheet.getCell(rowIndex + 1, column + 1).value = value;
      });
    });
    for (const range of spec.merges ?? []) sheet.mergeCells(range);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** CSV text from rows, quoting what needs it, records ended by CRLF as Excel writes them. */
export function csvText(rows: (string | number)[][]): string {
  const field = (value: string | number): string => {
    const text = String(value);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return rows.map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

export const cp949Csv = (rows: (string | number)[][]): Buffer => iconv.encode(csvText(rows), 'cp949');
export const utf8Csv = (rows: (string | number)[][], bom: boolean): Buffer =>
  Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(csvText(rows), 'utf8')]);

/** An Excel date cell holding a KST wall clock: exceljs writes a Date's UTC fields as the sheet's clock. */
export const excelWallClock = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date =>
  new Date(Date.UTC(year, month - 1, day, hour, minute, second));

export const LIMITS = { maxBytes: 5_000_000, maxRows: 10_000 };
