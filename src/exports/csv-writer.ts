import { cp949Bytes } from './cp949-text';
import { majorUnitText, type ExportCell } from './export-cell';
import { KST_HEADER_SUFFIX, kstText } from './kst-text';
import { neutraliseText } from './neutralise';
import { BUFFERED_BYTES_LIMIT, waitForRoom, type HeaderCell, type TableWriter, type WriterOptions } from './table-writer';

/**
 * `utf-8`: every character, with a BOM (Excel opens a BOM'd file as UTF-8). `cp949`: the Korean
 * Windows code page, which Excel and LibreOffice take on a Korean machine when the file is simply
 * opened (LibreOffice's import ignores the BOM and preselects the system's code page).
 */
export type CsvEncoding = 'utf-8' | 'cp949';

/** Excel opens a CSV as the machine's code page (CP949 on a Korean Windows) unless it starts with a BOM. */
const BOM = '\uFEFF';

/**
 * What goes in front of an identifier so that a spreadsheet's default import keeps it as text
 * (a bare `26112112583000000019` becomes 2.6E+19, `00123` becomes 123, `11-27` a date). A character
 * that is no digit, sign or space makes Excel and LibreOffice take the field as text; the quote
 * prefix a spreadsheet honours when typed is kept literally by a CSV import, and `="…"` is a formula.
 * UTF-8: U+2060 WORD JOINER, which shows nothing, is no white space a spreadsheet trims, and starts
 * no formula. CP949 has no invisible character, so there a tab: Excel and LibreOffice keep it and
 * show nothing; a program that strips a leading tab finds text that was neutralised before the tab
 * was added, so it runs nothing either.
 */
const IDENTIFIER_MARK: Record<CsvEncoding, string> = { 'utf-8': '\u2060', cp949: '\t' };

/** RFC 4180: a field with a quote, a comma or a line break is quoted, its quotes doubled. */
function quoted(text: string): string {
  return /[",\r\n]/.test(text) ? alwaysQuoted(text) : text;
}

const alwaysQuoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * A cell as CSV text. An amount is written as the bare decimal number it is (`-30.00`, `12000`),
 * never prefixed: it is made here from an integer, so it is only a sign, digits and a point, which
 * every spreadsheet reads as a number and none as a formula; a quote in front would turn a refund
 * into text that no SUM adds. Text, whatever it holds, was neutralised when the cell was made; an
 * identifier is quoted with its mark, so a separator a reader adds (a tab) cannot split it.
 */
function csvField(cell: ExportCell, mark: string): string {
  switch (cell.kind) {
    case 'text': return cell.identifier ? alwaysQuoted(mark + cell.text) : quoted(cell.text);
    case 'money': return majorUnitText(cell);
    case 'time': return kstText(cell.iso);
    // `2026-12-02` is read as a date by every spreadsheet, which is what a day is.
    case 'date': return cell.day;
    case 'count': return String(cell.value);
    case 'empty': return '';
  }
}

/** The Content-Type of a CSV in `encoding`. */
export const csvContentType = (encoding: CsvEncoding): string => (encoding === 'cp949' ? 'text/csv; charset=cp949' : 'text/csv; charset=utf-8');

/** CRLF line ends, one list (a CSV holds one table); UTF-8 with a BOM unless CP949 is asked for. */
export function csvWriter({ out }: WriterOptions, encoding: CsvEncoding = 'utf-8'): TableWriter {
  let started = false;
  const mark = IDENTIFIER_MARK[encoding];
  const write = encoding === 'cp949' ? (line: string) => out.write(cp949Bytes(line)) : (line: string) => out.write(line);
  return {
    extension: 'csv',
    contentType: csvContentType(encoding),
    beginList(_title: string, headers: HeaderCell[]) {
      if (started) throw new Error('a CSV export holds one list');
      started = true;
      const line = headers.map((h) => quoted(neutraliseText(h.kind === 'time' ? h.text + KST_HEADER_SUFFIX : h.text))).join(',');
      write(`${encoding === 'utf-8' ? BOM : ''}${line}\r\n`);
    },
    row(cells) {
      write(`${cells.map((cell) => csvField(cell, mark)).join(',')}\r\n`);
    },
    roomToWrite: () => waitForRoom(out, () => out.writableLength > BUFFERED_BYTES_LIMIT),
    end: () => new Promise<void>((resolve) => {
      out.end(resolve);
    }),
    abort() {
      out.destroy();
    },
  };
}
