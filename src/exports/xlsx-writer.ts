import ExcelJS from 'exceljs';
import { isCurrencyCode } from '../money/format-money';
import { currencyDigits, majorUnitText, type ExportCell } from './export-cell';
import type { ExportLanguage } from './export-source';
import { KST_HEADER_SUFFIX, kstWallClock } from './kst-text';
import { neutraliseText } from './neutralise';
import { sheetLayout, WIDTH_SAMPLE_ROWS } from './column-widths';
import { BUFFERED_BYTES_LIMIT, waitForRoom, type HeaderCell, type TableWriter, type WriterOptions } from './table-writer';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const DATE_FORMAT = 'yyyy-mm-dd';
/** Excel's text format: an identifier stays text even when someone edits the cell and presses Enter. */
const TEXT_FORMAT = '@';
/** Excel refuses a cell longer than this. */
const MAX_CELL_TEXT = 32_767;
/** Characters XML 1.0 cannot carry: one in a sheet makes Excel call the file corrupt. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The number format of an amount in its currency, as the page writes it: `#,##0"원"` for won in
 * Korean, `"₩"#,##0` in English, `"$"#,##0.00` for dollars; a code Intl does not know gets the
 * bare number (its currency column still names it).
 */
function moneyFormat(currency: string, language: ExportLanguage): string {
  const key = `${language} ${currency}`;
  let format = FORMATS.get(key);
  if (format === undefined) {
    format = formatOf(currency, language);
    if (FORMATS.size < 256) FORMATS.set(key, format);
  }
  return format;
}

/** Formats by language and currency code, made once each (Intl is slow to ask). */
const FORMATS = new Map<string, string>();

function formatOf(currency: string, language: ExportLanguage): string {
  const digits = currencyDigits(currency);
  const number = digits > 0 ? `#,##0.${'0'.repeat(digits)}` : '#,##0';
  if (currency === 'KRW' && language === 'ko') return `${number}"원"`;
  if (!isCurrencyCode(currency)) return number;
  const symbol = new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' })
    .formatToParts(0).find((part) => part.type === 'currency')?.value ?? currency;
  return `"${symbol.replace(/"/g, '')}"${number}`;
}

function cellValue(cell: ExportCell): string | number | Date | null {
  switch (cell.kind) {
    case 'text': return cell.text.replace(NOT_XML, '\uFFFD').slice(0, MAX_CELL_TEXT);
    // Exact decimal text to a number: the double nearest to 12.03, as Excel would read it typed.
    case 'money': return Number(majorUnitText(cell));
    case 'time': return kstWallClock(cell.iso);
    case 'date': return new Date(`${cell.day}T00:00:00Z`);
    case 'count': return cell.value;
    case 'empty': return null;
  }
}

/**
 * What waits inside the zip for its turn to be compressed. exceljs hands a sheet's XML to the zip
 * (archiver) through a PassThrough that is never asked to drain, so this is where rows pile up when
 * the client reads slowly: the export reads no more rows while it is large.
 */
function sheetBacklog(sheet: ExcelJS.Worksheet): number {
  const stream = (sheet as unknown as { stream?: { pipes?: Array<{ _writableState?: { length: number }; _readableState?: { length: number } }> } }).stream;
  return (stream?.pipes ?? []).reduce((sum, pipe) => sum + (pipe._writableState?.length ?? 0) + (pipe._readableState?.length ?? 0), 0);
}

/**
 * A number sits at its column's right edge and a text at the next one's left: without a space
 * between them a count of 0 beside a pgCno reads as one number (`0 2611…`). An indent keeps them apart.
 */
const NUMBER_ALIGNMENT = { horizontal: 'right', indent: 1 } as const;

/** One point of row height per line of the header's 11-point text, and a little room. */
const POINTS_PER_LINE = 15;

/**
 * How the sheet prints: landscape, every column on one page's width (as many pages down as the
 * rows take) and the header row repeated at the top of each page, so a printed page can be read
 * on its own.
 */
const PAGE_SETUP = { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0, paperSize: 9 } as const;

/**
 * A workbook written as it goes (exceljs's streaming writer): one sheet per list, a header row,
 * typed cells. A sheet's first rows are held back until its columns' widths are computed from them
 * (an .xlsx states widths before its rows); after that, each row leaves as it comes.
 */
export function xlsxWriter({ out, language }: WriterOptions): TableWriter {
  // Inline strings: a shared-strings table would keep every distinct text of the export in memory.
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  let sheet: ExcelJS.Worksheet | null = null;
  let kinds: Array<HeaderCell['kind']> = [];
  let headers: HeaderCell[] = [];
  let held: ExportCell[][] | null = null;

  const writeRow = (cells: ExportCell[]) => {
    const row = sheet!.addRow(cells.map(cellValue));
    cells.forEach((cell, i) => {
      if (cell.kind === 'money' || cell.kind === 'count') row.getCell(i + 1).alignment = NUMBER_ALIGNMENT;
      if (cell.kind === 'money') row.getCell(i + 1).numFmt = moneyFormat(cell.currency, language);
      else if (kinds[i] === 'time' && cell.kind === 'time') row.getCell(i + 1).numFmt = TIME_FORMAT;
      else if (cell.kind === 'date') row.getCell(i + 1).numFmt = DATE_FORMAT;
      else if (cell.kind === 'text' && cell.identifier) row.getCell(i + 1).numFmt = TEXT_FORMAT;
    });
    row.commit();
  };
  /** The columns sized from the rows held, the header written, then the rows held. */
  const release = () => {
    if (!sheet || held === null) return;
    const layout = sheetLayout(headers, held);
    sheet.columns = headers.map((h, i) => ({ header: h.text, width: layout.widths[i]! }));
    const header = sheet.getRow(1);
    header.font = { bold: true };
    header.alignment = { wrapText: true, vertical: 'top' };
    header.height = layout.headerLines * POINTS_PER_LINE;
    header.commit();
    for (const cells of held) writeRow(cells);
    held = null;
  };
  return {
    extension: 'xlsx',
    contentType: XLSX_CONTENT_TYPE,
    beginList(title, list) {
      release();
      sheet?.commit();
      sheet = book.addWorksheet(title.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }], pageSetup: { ...PAGE_SETUP } });
      sheet.pageSetup.printTitlesRow = '1:1';
      kinds = list.map((h) => h.kind);
      headers = list.map((h) => ({ ...h, text: neutraliseText(h.kind === 'time' ? h.text + KST_HEADER_SUFFIX : h.text) }));
      held = [];
    },
    row(cells) {
      if (!sheet) throw new Error('a row before its list');
      if (held === null) return writeRow(cells);
      held.push(cells);
      if (held.length >= WIDTH_SAMPLE_ROWS) release();
    },
    roomToWrite: () => waitForRoom(out, () => out.writableLength > BUFFERED_BYTES_LIMIT || (sheet !== null && sheetBacklog(sheet) > BUFFERED_BYTES_LIMIT)),
    async end() {
      release();
      sheet?.commit();
      await book.commit();
    },
    abort() {
      (book as unknown as { zip?: { abort?: () => void } }).zip?.abort?.();
      out.destroy();
    },
  };
}
