import type { CellGrid, GridRow } from './cell-grid';

const FIELD_END = /[,\r\n]/g;

/**
 * RFC 4180 fields: a quoted field may hold commas, doubled quotes and line breaks; records end
 * at CRLF or LF. Text after a quoted field's closing quote is kept, as Excel reads it. Every
 * cell is text: what it means is decided by the column it sits in. Stops once a record past
 * `maxRows` is seen, so an oversized file costs no more than the limit.
 */
export function csvGrid(text: string, maxRows: number): CellGrid | { tooManyRows: true } {
  const rows: GridRow[] = [];
  let cells: string[] = [];
  let at = 0;
  while (at < text.length) {
    let field = '';
    if (text[at] === '"') {
      let from = at + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote < 0) {
          field += text.slice(from);
          at = text.length;
          break;
        }
        field += text.slice(from, quote);
        if (text[quote + 1] === '"') {
          field += '"';
          from = quote + 2;
        } else {
          at = quote + 1;
          break;
        }
      }
    }
    FIELD_END.lastIndex = at;
    const end = FIELD_END.exec(text);
    const stop = end ? end.index : text.length;
    field += text.slice(at, stop);
    cells.push(field);
    at = stop + 1;
    if (!end || end[0] !== ',') {
      if (end?.[0] === '\r' && text[stop + 1] === '\n') at += 1;
      rows.push({ line: rows.length + 1, cells });
      cells = [];
      if (rows.length > maxRows) return { tooManyRows: true };
    } else if (at >= text.length) {
      cells.push('');
      rows.push({ line: rows.length + 1, cells });
    }
  }
  return { rows, merges: [], problems: [] };
}
