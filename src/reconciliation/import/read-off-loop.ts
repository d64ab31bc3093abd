import { Worker } from 'node:worker_threads';
import type { GatewayTransactionRow, ReadResult, SettlementRow } from '../file/gateway-rows';
import { MAX_IMPORT_BYTES, type ListReader } from './import-list';
import { workerFile } from './worker-file';

/** Spreadsheet rows one list may have (title and header rows included): a month of a busy mall. */
const MAX_IMPORT_ROWS = 500_000;

/** What the reader's thread is given. */
export interface ReadJob {
  bytes: Uint8Array;
  fileName: string;
  maxBytes: number;
  maxRows: number;
}

/**
 * Reads a list on a thread of its own (list-reader-worker.ts): parsing a workbook of a hundred
 * thousand rows takes seconds of CPU, which must never stand on an event loop that answers the
 * console, the API or the gateway. The thread's memory is capped, so a file that inflates (a zip
 * bomb) ends it rather than the process.
 */
export const readListOffLoop: ListReader = (bytes, fileName) => new Promise<ReadResult<GatewayTransactionRow | SettlementRow>>((resolve, reject) => {
  const job: ReadJob = { bytes, fileName, maxBytes: MAX_IMPORT_BYTES, maxRows: MAX_IMPORT_ROWS };
  const worker = new Worker(workerFile('list-reader-worker', __dirname), { workerData: job, resourceLimits: { maxOldGenerationSizeMb: 1024 } });
  let answered = false;
  worker.once('message', (result: ReadResult<GatewayTransactionRow | SettlementRow>) => {
    answered = true;
    resolve(result);
  });
  worker.once('error', (error) => {
    answered = true;
    if ((error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      resolve({ ok: false, problems: [{ code: 'too_large', line: null, column: null, message: 'the file is too large to read (its content outgrew the reader\'s memory)' }] });
    } else reject(error);
  });
  worker.once('exit', (code) => {
    if (!answered) reject(new Error(`the list reader's thread stopped (exit code ${code}) before it answered`));
  });
});
