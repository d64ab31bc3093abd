import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { csvWriter } from '../../exports/csv-writer';
import { EXPORT_READS, exportSourceOf, type ExportRead, type ExportReads } from '../../exports/export-plan';
import { runExport } from '../../exports/run-export';
import { xlsxWriter } from '../../exports/xlsx-writer';
import { lowerThisThread } from '../../thread-priority';
import { exportWords } from '../export-words';
import { translatorFor } from '../i18n/translator';
import type { ExportJob, FromExportThread, ToExportThread } from './export-protocol';

/**
 * The export thread: makes one export's rows, masks and encodes them, and hands the file's bytes
 * to the request's thread, which owns the store and the response. It reads a page only when the
 * runner asks for one and sends bytes only as fast as the response takes them.
 */
const port = parentPort!;
const job = workerData as ExportJob;
const send = (message: FromExportThread) => port.postMessage(message);

// An operator's download may wait; the gateway's acks and the other operators' pages may not.
lowerThisThread();

let gone = false;
let nextRead = 1;
const reading = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
let written: (() => void) | null = null;
let ended: (() => void) | null = null;

port.on('message', (message: ToExportThread) => {
  switch (message.type) {
    case 'read': {
      const waiting = reading.get(message.id);
      reading.delete(message.id);
      if (message.ok) waiting?.resolve(message.value);
      else waiting?.reject(new Error(message.error));
      return;
    }
    case 'written': return release('written');
    case 'ended': return release('ended');
    case 'gone':
      gone = true;
      for (const waiting of reading.values()) waiting.reject(new Error('the client went away'));
      reading.clear();
      release('written');
      release('ended');
  }
});

function release(which: 'written' | 'ended'): void {
  const waiting = which === 'written' ? written : ended;
  if (which === 'written') written = null;
  else ended = null;
  waiting?.();
}

function read(method: ExportRead, args: unknown[]): Promise<unknown> {
  if (gone) return Promise.reject(new Error('the client went away'));
  const id = nextRead++;
  return new Promise((resolve, reject) => {
    reading.set(id, { resolve, reject });
    send({ type: 'read', id, method, args });
  });
}

const reads = Object.fromEntries(EXPORT_READS.map((method) => [method, (...args: unknown[]) => read(method, args)])) as unknown as ExportReads;

/** The response as this thread sees it: each batch of bytes is done once the request's thread says it was written. */
const out = new Writable({
  writev(chunks, done) {
    if (gone) return done();
    written = () => done();
    send({ type: 'bytes', chunk: Buffer.concat(chunks.map(({ chunk }) => chunk as Buffer)) });
  },
  final(done) {
    if (gone) return done();
    ended = () => done();
    send({ type: 'end' });
  },
});

const writer = job.format === 'xlsx' ? xlsxWriter({ out, language: job.locale }) : csvWriter({ out, language: job.locale }, job.encoding);
void runExport([exportSourceOf(job.plan, reads)], writer, exportWords(translatorFor(job.locale)), () => gone).then((outcome) => {
  if (!outcome.complete) writer.abort();
  // A read refused because the client left is the client leaving, not a failure of the export.
  const failure = outcome.failure === undefined || gone ? undefined : (outcome.failure as Error).message ?? String(outcome.failure);
  send({ type: 'done', rows: outcome.rows, complete: outcome.complete && !gone, ...(failure === undefined ? {} : { failure }) });
});
