import { majorUnitText, type ExportCell } from './export-cell';
import { KST_HEADER_SUFFIX, kstText } from './kst-text';
import { neutraliseText } from './neutralise';
import { BUFFERED_BYTES_LIMIT, waitForRoom, type HeaderCell, type TableWriter, type WriterOptions } from './table-writer';

/** Excel opens a CSV as the machine's code page (CP949 on a Korean Windows) unless it starts with a BOM. */
const BOM = '\uFEFF';

/** RFC 4180: a field with a quote, a comma or a line break is quoted, its quotes doubled. */
function quoted(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A cell as CSV text. An amount is written as the bare decimal number it is (`-30.00`, `12000`),
 * never prefixed: it is made here from an integer, so it is only a sign, digits and a point, which
 * every spreadsheet reads as a number and none as a formula; a quote in front would turn a refund
 * into text that no SUM adds. Text, whatever it holds, was neutralised when the cell was made.
 */
function csvField(cell: ExportCell): string {
  switch (cell.kind) {
    case 'text': return quoted(cell.text);
    case 'money': return majorUnitText(cell);
    case 'time': return kstText(cell.iso);
    case 'count': return String(cell.value);
    case 'empty': return '';
  }
}

/** UTF-8 with a BOM, CRLF line ends, one list (a CSV holds one table). */
export function csvWriter({ out }: WriterOptions): TableWriter {
  let started = false;
  const write = (line: string) => {
    out.write(line);
  };
  return {
    extension: 'csv',
    contentType: 'text/csv; charset=utf-8',
    beginList(_title: string, headers: HeaderCell[]) {
      if (started) throw new Error('a CSV export holds one list');
      started = true;
      write(`${BOM}${headers.map((h) => quoted(neutraliseText(h.kind === 'time' ? h.text + KST_HEADER_SUFFIX : h.text))).join(',')}\r\n`);
    },
    row(cells) {
      write(`${cells.map(csvField).join(',')}\r\n`);
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
