import type { ExportSource, ExportWords } from './export-source';
import type { TableWriter } from './table-writer';

export interface ExportOutcome {
  rows: number;
  /** False when the client went away before the last row, or the export failed. */
  complete: boolean;
  /** What stopped it, when the store or a writer failed midway (the response is then cut off). */
  failure?: unknown;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/**
 * Rows written between two turns of the event loop inside a page: a row of .xlsx costs about
 * 0.1 ms, so a thousand in one go would hold the acks for 100 ms; fifty hold them a few ms.
 */
const ROWS_PER_TURN = 50;

/**
 * Writes each list a page at a time: a page is read, its rows written, then the export waits until
 * the client has taken most of it and gives the event loop a turn before it reads the next page
 * (the console runs this on an export thread of its own, console/render/export-worker.ts, whose
 * loop still answers the messages that carry its reads and its bytes). So memory holds about one
 * page and one buffer's worth of bytes, however many rows there are. `gone`: the client closed the
 * connection or stopped reading; the export stops at the next row.
 */
export async function runExport(
  sources: ReadonlyArray<ExportSource<unknown>>,
  writer: TableWriter,
  words: ExportWords,
  gone: () => boolean,
): Promise<ExportOutcome> {
  let rows = 0;
  try {
    rows = await writeLists(sources, writer, words, gone, (n) => (rows = n));
  } catch (failure) {
    return { rows, complete: false, failure };
  }
  return { rows, complete: !gone() };
}

async function writeLists(
  sources: ReadonlyArray<ExportSource<unknown>>,
  writer: TableWriter,
  words: ExportWords,
  gone: () => boolean,
  progress: (rows: number) => void,
): Promise<number> {
  let rows = 0;
  for (const source of sources) {
    const columns = source.columns(words);
    writer.beginList(source.sheetTitle[words.language], columns.map((c) => ({ text: c.header[words.language], ...(c.kind ? { kind: c.kind } : {}) })));
    for await (const page of source.pages()) {
      for (const row of page) {
        if (gone()) return rows;
        writer.row(columns.map((c) => c.cell(row)));
        progress((rows += 1));
        if (rows % ROWS_PER_TURN === 0) {
          // A page of large rows (notifications of tens of KB) is many megabytes of bytes: wait for room within the page too.
          await writer.roomToWrite();
          await nextTurn();
        }
      }
      await writer.roomToWrite();
      await nextTurn();
      if (gone()) return rows;
    }
  }
  await writer.end();
  return rows;
}
