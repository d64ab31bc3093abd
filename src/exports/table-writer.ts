import type { Writable } from 'node:stream';
import { drainedOrClosed } from '../drained-or-closed';
import type { ExportCell } from './export-cell';
import type { ExportLanguage } from './export-source';

/** A column's header as the writers get it: its text and what its cells hold. */
export interface HeaderCell {
  text: string;
  kind?: 'money' | 'time';
}

/** One output format. Rows go in one list at a time; the format decides how a cell is spelled. */
export interface TableWriter {
  readonly extension: 'xlsx' | 'csv';
  readonly contentType: string;
  beginList(title: string, headers: HeaderCell[]): void;
  row(cells: ExportCell[]): void;
  /** Resolves once what was written so far has mostly left for the client (or the client is gone). */
  roomToWrite(): Promise<void>;
  /** The last bytes; resolves when the response has them all. */
  end(): Promise<void>;
  /** The client went away: drop what is buffered. */
  abort(): void;
}

export interface WriterOptions {
  out: Writable;
  language: ExportLanguage;
}

/** Past this many bytes buffered on the way to the client, the export waits before reading more rows. */
export const BUFFERED_BYTES_LIMIT = 1 << 20;

/**
 * Waits while `full()` says the bytes on their way out exceed the bound: on the response's own
 * `drain` when it asks for one, else a short timer (a zip's inner buffers emit no drain of their own).
 */
export async function waitForRoom(out: Writable, full: () => boolean): Promise<void> {
  while (full() && !out.destroyed && !out.writableEnded) {
    if (out.writableNeedDrain) {
      await drainedOrClosed(out);
    } else {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
}
