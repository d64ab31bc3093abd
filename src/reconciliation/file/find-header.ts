import { isBlankCell, type Cell, type CellGrid } from './cell-grid';
import type { ColumnMapping, GatewayListKind } from './gateway-rows';
import { normaliseHeader, SETTLEMENT_HEADERS, SETTLEMENT_KEYS, TRANSACTION_HEADERS, TRANSACTION_KEYS } from './header-names';

/** Portals put a title, the query period and the search terms above the table: a few rows, never many. */
const HEADER_SEARCH_ROWS = 30;

/** The header a list was found with: where it is, what each column is called, which field reads which column. */
export interface FoundHeader {
  kind: GatewayListKind;
  /** The index in the grid's rows of the header's last row: data starts after it. */
  lastHeaderRow: number;
  line: number;
  /** Each column's header text: 「top sub」 under a merged top cell, the cell's trimmed text otherwise. */
  headers: string[];
  columns: Partial<Record<string, number>>;
  mapping: ColumnMapping;
  /** Key fields no column was found for. */
  missing: string[];
}

/**
 * The first row, among the first rows, that names every key field of the list (with the mapping
 * given, or the built-in names); otherwise the candidate that names the most, with what it lacks.
 * A row with a cell merged across columns whose next row continues it is a two-row header: the
 * sub-header names the columns, prefixed by the merged cell above it.
 */
export function findHeader(grid: CellGrid, options: { kind?: GatewayListKind; mapping?: ColumnMapping }): FoundHeader | null {
  let best: FoundHeader | null = null;
  const searched = Math.min(grid.rows.length, HEADER_SEARCH_ROWS);
  for (let index = 0; index < searched; index += 1) {
    const { headers, names, lastHeaderRow } = headerAt(grid, index);
    if (headers.every((header) => header === '')) continue;
    // A statement also names a transaction list's keys (거래금액, 거래일자), so it is tried first;
    // between two partial candidates the transaction list, the usual file, is the likelier.
    const kinds: GatewayListKind[] = options.kind ? [options.kind] : ['settlement', 'transactions'];
    const candidates = kinds.map((kind): FoundHeader => {
      const columns = options.mapping ? mappedColumns(headers, options.mapping) : builtInColumns(names, kind);
      return {
        kind,
        lastHeaderRow,
        line: grid.rows[index]!.line,
        headers,
        columns,
        mapping: Object.fromEntries(Object.entries(columns).map(([field, column]) => [field, headers[column!]!])),
        missing: missingKeys(kind, columns),
      };
    });
    const complete = candidates.find((candidate) => candidate.missing.length === 0);
    if (complete) return complete;
    for (const candidate of candidates.reverse()) {
      if (!best || keyCount(candidate) > keyCount(best)) best = candidate;
    }
  }
  return best;
}

/** The share of a kind's key fields a candidate names, so a transaction list is not reported as a poor settlement statement. */
function keyCount(found: FoundHeader): number {
  const keys = found.kind === 'settlement' ? SETTLEMENT_KEYS.length : TRANSACTION_KEYS.length;
  return (keys - found.missing.length) / keys;
}

function missingKeys(kind: GatewayListKind, columns: Partial<Record<string, number>>): string[] {
  const keys: readonly string[] = kind === 'settlement' ? SETTLEMENT_KEYS : TRANSACTION_KEYS;
  return keys.filter((key) => columns[key] === undefined && !(key === 'at' && columns.atDay !== undefined));
}

interface HeaderRow {
  headers: string[];
  /** Per column, the normalised names to match: the full 「top sub」 name first, then the sub-header alone. */
  names: string[][];
  lastHeaderRow: number;
}

function headerAt(grid: CellGrid, index: number): HeaderRow {
  const row = grid.rows[index]!;
  const next = grid.rows[index + 1];
  const mergedAcross = grid.merges.some((range) => range.top === row.line && range.right > range.left);
  const top = row.cells.map(headerText);
  if (!mergedAcross || !next || next.line !== row.line + 1) {
    return { headers: top, names: top.map((text) => [normaliseHeader(text)]), lastHeaderRow: index };
  }
  const width = Math.max(top.length, next.cells.length);
  const headers: string[] = [];
  const names: string[][] = [];
  for (let column = 0; column < width; column += 1) {
    const above = top[column] ?? '';
    const sub = headerText(next.cells[column] ?? null);
    if (sub === '' || sub === above) {
      headers.push(above);
      names.push([normaliseHeader(above)]);
    } else {
      headers.push(above === '' ? sub : `${above} ${sub}`);
      names.push([normaliseHeader(`${above}${sub}`), normaliseHeader(sub)]);
    }
  }
  return { headers, names, lastHeaderRow: index + 1 };
}

function headerText(cell: Cell): string {
  if (isBlankCell(cell)) return '';
  return (cell instanceof Date ? cell.toISOString() : String(cell)).trim();
}

function builtInColumns(names: string[][], kind: GatewayListKind): Partial<Record<string, number>> {
  const fields = kind === 'settlement' ? SETTLEMENT_HEADERS : TRANSACTION_HEADERS;
  const taken = new Set<number>();
  const columns: Partial<Record<string, number>> = {};
  for (const [field, synonyms] of Object.entries(fields)) {
    const column = firstMatch(names, synonyms, taken);
    if (column === undefined) continue;
    columns[field] = column;
    taken.add(column);
  }
  return columns;
}

function firstMatch(names: string[][], synonyms: readonly string[], taken: Set<number>): number | undefined {
  for (const depth of [0, 1]) {
    for (const synonym of synonyms) {
      const column = names.findIndex((candidates, at) => !taken.has(at) && candidates[depth] === synonym);
      if (column >= 0) return column;
    }
  }
  return undefined;
}

/** A mapping names a column by its header text; spacing and bracketed units may differ. */
function mappedColumns(headers: string[], mapping: ColumnMapping): Partial<Record<string, number>> {
  const columns: Partial<Record<string, number>> = {};
  for (const [field, header] of Object.entries(mapping)) {
    if (!header) continue;
    let column = headers.indexOf(header.trim());
    if (column < 0) column = headers.findIndex((text) => text !== '' && normaliseHeader(text) === normaliseHeader(header));
    if (column >= 0) columns[field] = column;
  }
  return columns;
}
