import type { CsvEncoding } from '../../exports/csv-writer';
import type { ExportPlan, ExportRead } from '../../exports/export-plan';
import type { Locale } from '../i18n/locale';

/** What the export thread is started with. */
export interface ExportJob {
  plan: ExportPlan;
  format: 'xlsx' | 'csv';
  encoding: CsvEncoding;
  locale: Locale;
}

/** The export thread to the request's thread. */
export type FromExportThread =
  /** A read of the store (which only the request's thread holds). */
  | { type: 'read'; id: number; method: ExportRead; args: unknown[] }
  /** Bytes of the file, in order; the thread sends no more until they are `written`. */
  | { type: 'bytes'; chunk: Uint8Array }
  /** The last bytes were sent: end the response. */
  | { type: 'end' }
  | { type: 'done'; rows: number; complete: boolean; failure?: string };

/** The request's thread to the export thread. */
export type ToExportThread =
  | { type: 'read'; id: number; ok: true; value: unknown }
  | { type: 'read'; id: number; ok: false; error: string }
  /** The last bytes left for the client (the response took them without asking to wait, or drained). */
  | { type: 'written' }
  | { type: 'ended' }
  /** The client went away (closed, or stopped reading for too long): stop at the next row, read nothing more. */
  | { type: 'gone' };
