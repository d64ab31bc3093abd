import { parentPort, workerData } from 'node:worker_threads';
import { readGatewayList } from '../file/read-gateway-list';
import type { ReadJob } from './read-off-loop';

/** The list reader's thread (read-off-loop.ts): one file read, its answer posted, then it ends. */
const job = workerData as ReadJob;
void readGatewayList(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength), job.fileName, { maxBytes: job.maxBytes, maxRows: job.maxRows })
  .then((result) => parentPort!.postMessage(result));
