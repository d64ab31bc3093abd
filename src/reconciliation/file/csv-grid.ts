import type { CellGrid, GridRow } from './cell-grid';

/**
 * RFC 4180 fields: a quoted field may hold commas, doubled quotes and line breaks; records end
 * at CRLF or LF. A quote inside an unquoted field is kept as text, as Excel reads it. Every
 * cell is text: what it means is decided by the column it sits in.
 */
export function csvGrid(text: string, maxRows: number): CellGrid | { tooManyRows: true } {
  const rows: GridRow[] = [];
  let cells: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let fieldStarted = false;
  const endRecord = (): boolean => {
    cells.push(field);
    rows.push({ line, cells });
    line += 1;
    cells = [];
    field = '';
    fieldStarted = false;
    return rows.length > maxRows;
  };
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at]!;
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[at + 1] === '"') {
        field += '"';
        at += 1;
      } else quoted = false;
    } else if (char === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (char === ',') {
      cells.push(field);
      field = '';
      fieldStarted = false;
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[at + 1] === '\n') at += 1;
      if (endRecord()) return { tooManyRows: true };
    } else {
      field += char;
      fieldStarted = true;
    }
  }
  if (fieldStarted || field !== '' || cells.length > 0) {
    if (endRecord()) return { tooManyRows: true };
  }
  return { rows, merges: [], problems: [] };
}
