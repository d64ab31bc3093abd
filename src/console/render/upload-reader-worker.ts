import { parentPort, workerData } from 'node:worker_threads';
import { readGatewayList } from '../../reconciliation/file/read-gateway-list';
import { lowerThisThread } from '../../thread-priority';
import { readUpload } from '../upload-reading';
import type { UploadReadJob } from './read-upload-off-loop';

/** One upload read on its own thread: the preview's reading, or the whole file for an import. */
lowerThisThread();
const job = workerData as UploadReadJob;
const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
const reading = job.mode === 'preview'
  ? readUpload(bytes, job.fileName, job.reading)
  : readGatewayList(bytes, job.fileName, job.list);
reading.then(
  (result) => parentPort!.postMessage({ ok: true, result }),
  (error: Error) => parentPort!.postMessage({ ok: false, error: error.stack ?? String(error) }),
);
