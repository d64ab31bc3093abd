import { Worker } from 'node:worker_threads';
import type { GatewayListRow, ReadOptions } from '../../reconciliation/file/read-gateway-list';
import type { ReadResult } from '../../reconciliation/file/gateway-rows';
import type { UploadReading, readUpload } from '../upload-reading';
import { workerFile } from './worker-file';

export type UploadReadJob =
  | { mode: 'preview'; bytes: Uint8Array; fileName: string; reading: Parameters<typeof readUpload>[2] }
  | { mode: 'whole'; bytes: Uint8Array; fileName: string; list: ReadOptions };

/**
 * A portal file read on a thread of its own: a workbook of fifty thousand rows takes seconds of
 * CPU, which must not stand on the event loop that answers every other operator and the internal
 * API. The thread's memory is capped, so a file that inflates (a zip bomb) ends the thread, and the
 * read is refused as too large, rather than the process.
 */
function offLoop<T>(job: UploadReadJob): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(workerFile('upload-reader-worker', __dirname), { workerData: job, resourceLimits: { maxOldGenerationSizeMb: 1024 } });
    let answered = false;
    worker.once('message', (reply: { ok: true; result: T } | { ok: false; error: string }) => {
      answered = true;
      if (reply.ok) resolve(reply.result);
      else reject(new Error(`the upload reader failed: ${reply.error}`));
    });
    worker.once('error', (error) => {
      answered = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the upload reader's thread stopped (exit code ${code}) before it answered`));
    });
  });
}

const TOO_LARGE = { code: 'too_large', line: null, column: null, message: 'the file is too large to read (its content outgrew the reader\'s memory)' };
const outOfMemory = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';

/** The preview's reading (see readUpload), off the event loop. */
export async function readUploadOffLoop(bytes: Buffer, fileName: string, reading: Parameters<typeof readUpload>[2]): Promise<UploadReading> {
  try {
    return await offLoop<UploadReading>({ mode: 'preview', bytes, fileName, reading });
  } catch (error) {
    if (!outOfMemory(error)) throw error;
    return {
      preview: { kind: 'transactions', headerLine: null, headers: [], mapping: {}, missing: [], fields: [], rows: [], problems: [TOO_LARGE] },
      whole: { ok: false, problems: [TOO_LARGE] }, source: reading.given ? 'given' : 'builtIn',
    };
  }
}

/** The whole file read for an import (readGatewayList), off the event loop. */
export async function readListOffLoop(bytes: Buffer, fileName: string, list: ReadOptions): Promise<ReadResult<GatewayListRow>> {
  try {
    return await offLoop<ReadResult<GatewayListRow>>({ mode: 'whole', bytes, fileName, list });
  } catch (error) {
    if (!outOfMemory(error)) throw error;
    return { ok: false, problems: [TOO_LARGE] };
  }
}
