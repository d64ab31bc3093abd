import type { CellGrid } from './cell-grid';
import { kstDayOf } from './cell-values';
import { csvGrid } from './csv-grid';
import { decodeCsvText } from './csv-text';
import { dataRows } from './data-rows';
import { findHeader, type FoundHeader } from './find-header';
import type {
  ColumnMapping, FileProblem, GatewayListKind, GatewayTransactionRow, ReadResult, SettlementRow,
} from './gateway-rows';
import { SETTLEMENT_HEADERS, TRANSACTION_HEADERS } from './header-names';
import { SETTLEMENT_SHAPE, settlementRows } from './settlement-rows';
import { TRANSACTION_SHAPE, transactionRows } from './transaction-rows';
import { xlsxGrids } from './xlsx-grid';

export interface ReadOptions {
  /** The list the file must be; found from its headers when not given. */
  kind?: GatewayListKind;
  /** Field → header text; the built-in names when not given. */
  mapping?: ColumnMapping;
  /** Checked on the bytes before anything is parsed. */
  maxBytes: number;
  /** Spreadsheet rows, title and header rows included. */
  maxRows: number;
}

export type GatewayListRow = GatewayTransactionRow | SettlementRow;

const ZIP_MAGIC = Buffer.from('PK\u0003\u0004', 'latin1');

/**
 * A portal's transaction list or settlement statement, read whole or refused with every problem
 * found: an import stores all of a file or none of it. A workbook is read from the first sheet
 * whose header is found; anything else is read as CSV.
 */
export async function readGatewayList(bytes: Buffer, fileName: string, options: ReadOptions): Promise<ReadResult<GatewayListRow>> {
  const opened = await openList(bytes, fileName, options);
  if (!opened.ok) return { ok: false, problems: opened.problems };
  const { grid, header } = opened;
  const read = readRows(grid, header);
  const problems = [...grid.problems, ...read.problems];
  if (problems.length > 0) return { ok: false, problems };
  if (read.rows.length === 0) {
    return { ok: false, problems: [{ code: 'no_rows', line: null, column: null, message: 'the file has a header but no transactions under it' }] };
  }
  const days = read.rows.map(rowDay).sort();
  return { ok: true, kind: header.kind, rows: read.rows, firstDay: days[0]!, lastDay: days[days.length - 1]!, mapping: header.mapping, skipped: read.skipped };
}

export interface ListPreview {
  kind: GatewayListKind;
  /** The header row found (or the likeliest one, when key columns are missing), as the file spells it. */
  headerLine: number | null;
  headers: string[];
  /** The mapping applied (given) or suggested (built-in), field → header text. */
  mapping: ColumnMapping;
  /** Key fields no column is mapped to yet. */
  missing: string[];
  /** Every field a mapping may name, for the mapping screen's choices. */
  fields: string[];
  /** The first rows as read with that mapping, and what is wrong in them. */
  rows: GatewayListRow[];
  problems: FileProblem[];
}

/** What a mapping screen shows before anything is stored: the header found, the mapping, the first rows read with it. */
export async function previewGatewayList(bytes: Buffer, fileName: string, options: ReadOptions, count: number): Promise<ListPreview> {
  const opened = await openList(bytes, fileName, options);
  const found = opened.ok ? opened : opened.likeliest;
  const kind = found?.header.kind ?? options.kind ?? 'transactions';
  const fields = Object.keys(kind === 'settlement' ? SETTLEMENT_HEADERS : TRANSACTION_HEADERS);
  if (!found) {
    return { kind, headerLine: null, headers: [], mapping: options.mapping ?? {}, missing: [], fields, rows: [], problems: opened.ok ? [] : opened.problems };
  }
  const { grid, header } = found;
  const empty = { kind, headerLine: header.line, headers: header.headers, mapping: header.mapping, missing: header.missing, fields };
  if (header.missing.length > 0) return { ...empty, rows: [], problems: [missingProblem(header)] };
  const firstRows = { ...grid, rows: grid.rows.slice(0, header.lastHeaderRow + 1 + count) };
  const read = readRows(firstRows, header);
  return { ...empty, rows: read.rows.slice(0, count), problems: [...grid.problems, ...read.problems] };
}

interface Found {
  grid: CellGrid;
  header: FoundHeader;
}

/** A file opened at its header, or refused; a refused file may still have a likeliest header to show a mapping screen. */
type Opened = ({ ok: true } & Found) | { ok: false; problems: FileProblem[]; likeliest?: Found };

async function openList(bytes: Buffer, fileName: string, options: ReadOptions): Promise<Opened> {
  if (bytes.length > options.maxBytes) {
    return { ok: false, ...refused('too_large', `the file is ${bytes.length} bytes, over the limit of ${options.maxBytes}`) };
  }
  const grids = await fileGrids(bytes, fileName, options.maxRows);
  if ('problems' in grids) return { ok: false, problems: grids.problems };
  // A formula on any sheet says the workbook was edited, not only one on the sheet read.
  const everySheetsProblems = grids.flatMap((grid) => grid.problems);
  let likeliest: Found | undefined;
  for (const grid of grids) {
    const header = findHeader(grid, options);
    if (header && header.missing.length === 0) return { ok: true, grid: { ...grid, problems: everySheetsProblems }, header };
    if (header && !likeliest) likeliest = { grid, header };
  }
  if (!likeliest) return { ok: false, ...refused('missing_column', 'no header row was found in the first rows of the file') };
  return { ok: false, problems: [missingProblem(likeliest.header)], likeliest };
}

async function fileGrids(bytes: Buffer, fileName: string, maxRows: number): Promise<CellGrid[] | { problems: FileProblem[] }> {
  const tooMany = refused('too_many_rows', `the file has more than ${maxRows} rows`);
  if (/\.xlsx$/i.test(fileName) || bytes.subarray(0, 4).equals(ZIP_MAGIC)) {
    const grids = await xlsxGrids(bytes, maxRows);
    if (grids === null) return refused('unreadable_file', 'the file is not a readable .xlsx workbook');
    return 'tooManyRows' in grids ? tooMany : grids;
  }
  const text = decodeCsvText(bytes);
  if (text === null) return refused('encoding', 'the file is neither UTF-8 nor CP949 (EUC-KR) text');
  const grid = csvGrid(text, maxRows);
  return 'tooManyRows' in grid ? tooMany : [grid];
}

function readRows(grid: CellGrid, header: FoundHeader): { rows: GatewayListRow[]; problems: FileProblem[]; skipped: FileProblem[] } {
  const settlement = header.kind === 'settlement';
  const { rows, skipped } = dataRows(grid, header, settlement ? SETTLEMENT_SHAPE : TRANSACTION_SHAPE);
  return { ...(settlement ? settlementRows(rows) : transactionRows(rows)), skipped };
}

function rowDay(row: GatewayListRow): string {
  return 'at' in row ? kstDayOf(row.at) : row.transactionDay ?? row.payoutDay;
}

function missingProblem(header: FoundHeader): FileProblem {
  const names = header.kind === 'settlement' ? SETTLEMENT_HEADERS : TRANSACTION_HEADERS;
  const spellings = (field: string): string => (names[field] ?? []).join(', ');
  const what = header.missing
    .map((field) => `${field} (${spellings(field)}${field === 'at' ? `; or a day column: ${spellings('atDay')}` : ''})`)
    .join('; ');
  return { code: 'missing_column', line: header.line, column: null, message: `the header on row ${header.line} has no column for ${what}` };
}

function refused(code: string, message: string): { problems: FileProblem[] } {
  return { problems: [{ code, line: null, column: null, message }] };
}
