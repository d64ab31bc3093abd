import type { Response } from 'express';
import { Worker } from 'node:worker_threads';
import { EXPORT_READS, type ExportReads } from '../../exports/export-plan';
import type { ExportOutcome } from '../../exports/run-export';
import type { ExportJob, FromExportThread, ToExportThread } from './export-protocol';
import { workerFile } from './worker-file';

/**
 * How long a download may stand with the response's buffer full and the client taking nothing
 * before the export gives up on it: a client that stopped reading (a laptop lid closed, a proxy
 * that stalled) would otherwise hold a thread, a store cursor and a megabyte of bytes for as long
 * as the connection lives. A minute is far longer than any network a reading client is on pauses.
 */
const STALLED_DOWNLOAD_MS = 60_000;

export interface OffLoopExportOptions {
  /** The stalled-download limit (tests shorten it); STALLED_DOWNLOAD_MS by default. */
  stallMs?: number;
}

/**
 * Runs one export on a thread of its own (export-worker.ts): the rows are masked and encoded
 * there, never on the event loop that answers the other operators' pages and the API. This
 * thread answers the export's reads from `reads` and writes its bytes to `res`, taking the next
 * bytes only once the response has room, so the export goes at the client's pace in bounded memory.
 * A client that leaves, or stops reading for `stallMs`, ends the export: its socket is destroyed,
 * the thread is told, and no read is answered any more. Resolves with how it ended, once the thread is gone.
 */
export function exportOffLoop(job: ExportJob, reads: ExportReads, res: Response, options: OffLoopExportOptions = {}): Promise<ExportOutcome> {
  const stallMs = options.stallMs ?? STALLED_DOWNLOAD_MS;
  // A page of rows and a megabyte of bytes at a time; the cap keeps a runaway export from taking the process's memory.
  const worker = new Worker(workerFile('export-worker', __dirname), { workerData: job, resourceLimits: { maxOldGenerationSizeMb: 256 } });
  const post = (message: ToExportThread) => worker.postMessage(message);
  let gone = false;
  let stall: NodeJS.Timeout | null = null;
  const leave = () => {
    if (gone) return;
    gone = true;
    if (stall !== null) clearTimeout(stall);
    post({ type: 'gone' });
  };
  res.on('close', () => {
    if (!res.writableFinished) leave();
  });

  const answer = async (id: number, method: string, args: unknown[]) => {
    if (gone || !EXPORT_READS.includes(method as keyof ExportReads)) return post({ type: 'read', id, ok: false, error: gone ? 'the client went away' : `no read ${method}` });
    try {
      const value = await (reads[method as keyof ExportReads] as (...all: unknown[]) => Promise<unknown>)(...args);
      post(gone ? { type: 'read', id, ok: false, error: 'the client went away' } : { type: 'read', id, ok: true, value });
    } catch (error) {
      post({ type: 'read', id, ok: false, error: (error as Error).message });
    }
  };

  const write = (chunk: Uint8Array) => {
    if (gone) return;
    if (res.write(chunk)) return post({ type: 'written' });
    stall = setTimeout(() => {
      res.destroy();
      leave();
    }, stallMs);
    res.once('drain', () => {
      if (stall !== null) clearTimeout(stall);
      stall = null;
      if (!gone) post({ type: 'written' });
    });
  };

  return new Promise<ExportOutcome>((resolve) => {
    let outcome: ExportOutcome | null = null;
    worker.on('message', (message: FromExportThread) => {
      switch (message.type) {
        case 'read': return void answer(message.id, message.method, message.args);
        case 'bytes': return write(message.chunk);
        case 'end': return void res.end(() => post({ type: 'ended' }));
        case 'done':
          outcome = { rows: message.rows, complete: message.complete, ...(message.failure === undefined ? {} : { failure: new Error(message.failure) }) };
          // Cut off, so the client sees a file that did not finish rather than a short one.
          if (!message.complete && !res.writableFinished) res.destroy();
          void worker.terminate();
      }
    });
    worker.on('error', (error) => {
      outcome ??= { rows: 0, complete: false, failure: error };
    });
    worker.on('exit', () => {
      if (stall !== null) clearTimeout(stall);
      if (outcome === null || !outcome.complete) {
        if (!res.writableFinished) res.destroy();
      }
      resolve(outcome ?? { rows: 0, complete: false, failure: new Error('the export thread stopped') });
    });
  });
}
