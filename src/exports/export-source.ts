import type { ExportCell } from './export-cell';

export type ExportLanguage = 'ko' | 'en';

/** A column: its header in both of the console's languages and how a row fills it. */
export interface ExportColumn<Row> {
  header: { ko: string; en: string };
  /** A money or time column's header says its unit (the currency column, KST) in the writers' words. */
  kind?: 'money' | 'time';
  /** A method, so a list of orders and a list of events can be run by one loop (bivariant). */
  cell(row: Row): ExportCell;
}

/**
 * What the reader of an export needs from the service in words: the human name of a status or a
 * kind in the operator's language (the console's catalogue knows them; the export does not).
 */
export interface ExportWords {
  language: ExportLanguage;
  orderStatus: (code: string) => string;
  discrepancyKind: (code: string) => string;
  eventState: (code: string) => string;
}

/**
 * One exported list: a sheet in the .xlsx, the whole of a CSV. `pages` reads the store a page at a
 * time by a keyset cursor (never one query for every row) and stops when the store has no more;
 * the runner writes each page before it asks for the next. A new list (the daily summary) is one
 * more module of this shape under sources/.
 */
export interface ExportSource<Row> {
  /** The list's name: the sheet's, the file's and the audit row's (`orders`). */
  name: string;
  sheetTitle: { ko: string; en: string };
  columns(words: ExportWords): Array<ExportColumn<Row>>;
  pages(): AsyncIterable<Row[]>;
}
