import { previewGatewayList, readGatewayList, type GatewayListRow, type ListPreview } from '../reconciliation/file/read-gateway-list';
import type { ColumnMapping, FileProblem, GatewayListKind, ReadResult } from '../reconciliation/file/gateway-rows';
import type { SavedMapping } from '../reconciliation/import/reconciliation-store';

/** Rows a preview shows: enough to see each column read right, few enough to read on one screen. */
const PREVIEW_ROWS = 10;
/** Spreadsheet rows one list may have (title and header rows included): a month of a busy mall. */
export const MAX_LIST_ROWS = 500_000;

/** The list's kind as the form asks for it: one of the two, or found from the file's headers. */
export type AskedKind = GatewayListKind | 'detect';

export const ASKED_KINDS: readonly AskedKind[] = ['detect', 'transactions', 'settlement'];

/** Where the mapping a preview used came from: the mall's saved one, the built-in header names, or the mapping screen. */
export type MappingSource = 'saved' | 'builtIn' | 'given';

/** The whole file read, as the preview tells it: how many rows and days, or every problem (the rows themselves stay with the reader). */
export type WholeFile =
  | { ok: true; rowCount: number; firstDay: string; lastDay: string; skipped: FileProblem[] }
  | { ok: false; problems: FileProblem[] };

export interface UploadReading {
  preview: ListPreview;
  /** The whole file read with the same mapping: every problem, the rows passed over, the days. */
  whole: WholeFile;
  source: MappingSource;
}

const told = (read: ReadResult<GatewayListRow>): WholeFile =>
  read.ok ? { ok: true, rowCount: read.rows.length, firstDay: read.firstDay, lastDay: read.lastDay, skipped: read.skipped } : read;

interface ReadingOptions {
  kind: AskedKind;
  /** From the mapping screen: used as given, nothing else tried. */
  given: ColumnMapping | null;
  /** The mall's saved mappings: tried first, the built-in names after. */
  saved: readonly SavedMapping[];
  maxBytes: number;
}

/**
 * A staged file as the preview shows it and the import will read it: with the mapping screen's
 * mapping when there is one; else with the first of the mall's saved mappings (of the kind asked)
 * that names every key column, else with the built-in header names.
 */
export async function readUpload(bytes: Buffer, fileName: string, options: ReadingOptions): Promise<UploadReading> {
  const kind = options.kind === 'detect' ? undefined : options.kind;
  const base = { maxBytes: options.maxBytes, maxRows: MAX_LIST_ROWS, ...(kind ? { kind } : {}) };
  if (options.given) return readWith(bytes, fileName, { ...base, mapping: options.given }, 'given');
  for (const saved of options.saved) {
    if (kind && saved.kind !== kind) continue;
    const preview = await previewGatewayList(bytes, fileName, { ...base, kind: saved.kind as GatewayListKind, mapping: saved.mapping }, PREVIEW_ROWS);
    if (preview.headerLine !== null && preview.missing.length === 0) {
      return { preview, whole: told(await readGatewayList(bytes, fileName, { ...base, kind: saved.kind as GatewayListKind, mapping: saved.mapping })), source: 'saved' };
    }
  }
  return readWith(bytes, fileName, base, 'builtIn');
}

async function readWith(bytes: Buffer, fileName: string, options: Parameters<typeof readGatewayList>[2], source: MappingSource): Promise<UploadReading> {
  const preview = await previewGatewayList(bytes, fileName, options, PREVIEW_ROWS);
  return { preview, whole: told(await readGatewayList(bytes, fileName, options)), source };
}

/** A mapping from the mapping screen's fields (`map.<field>` = a header of the file); an empty choice maps nothing. */
export function mappingFromForm(body: Record<string, unknown>, fields: readonly string[]): ColumnMapping | null {
  const mapping: Record<string, string> = {};
  for (const field of fields) {
    const chosen = body[`map.${field}`];
    if (typeof chosen === 'string' && chosen.trim() !== '' && chosen.length <= 200) mapping[field] = chosen;
  }
  return Object.keys(mapping).length > 0 ? mapping : null;
}
