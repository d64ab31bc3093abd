import type { ResourceLimits, Worker } from 'node:worker_threads';
import type { ReadName } from '../procedures';
import { StoreUnavailable } from '../store';
import type { ReadMessage, ReadReply } from './reader-protocol';
import { startWorker, stopWorker } from './start-worker';

/** A page of events or a count holds little; like the writer's, a capped heap keeps garbage from piling up. */
const READER_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 512 };
/**
 * The ledger projector's thread parses, folds and builds the writes of a whole batch, garbage that
 * outlives a 4 MB young generation and is promoted, so its collector takes a large share of the
 * thread; 24 MB (8 MB semi-spaces, as `npm start` gives the main thread) frees it young
 * (bench/projector-throughput.ts; BENCHMARKS.md has the figures).
 */
export const PROJECTOR_HEAP = { maxYoungGenerationSizeMb: 24, maxOldGenerationSizeMb: 512 };

/**
 * The main thread's side of the reader worker (reader-worker.ts). Started by the first read that
 * needs it, so a receiver nobody scrapes or browses runs no extra thread. It keeps the process
 * alive only while a read is waiting: the CLI exits once its last answer arrived, and a service
 * shutting down is not held by it. A worker that dies fails the reads it held; the next read
 * starts another.
 */
export class ReaderClient {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;

  /** `worker`: the module the thread runs (the ledger's projector has one per database, beside the reader's). */
  constructor(
    private readonly setup: unknown,
    private readonly workerName = 'reader-worker',
    private readonly heap: ResourceLimits = READER_HEAP,
  ) {}

  read(name: ReadName, args: unknown[]): Promise<unknown> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    if (this.pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, name, args } satisfies ReadMessage);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    // Reads already posted are answered first: the worker takes messages in order.
    await stopWorker(worker);
  }

  private start(): Worker {
    const worker = startWorker(this.workerName, this.setup, this.heap);
    worker.on('message', (reply: ReadReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) waiting.resolve(asBuffers(reply.value));
      else waiting.reject(new StoreUnavailable(`${this.workerName === 'reader-worker' ? 'sqlite read' : this.workerName} failed: ${reply.error}`));
    });
    const lost = (reason: string) => {
      if (this.worker === worker) this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(new StoreUnavailable(reason));
      this.pending.clear();
    };
    worker.on('error', (error) => lost(`sqlite reader failed: ${error.message}`));
    worker.on('exit', () => lost('sqlite reader stopped'));
    worker.unref();
    return worker;
  }
}

/**
 * A Buffer crosses a thread as a plain Uint8Array; the Store's rows promise Buffers (`rawBody`),
 * as pg gives them. Wraps each one in place, without copying its bytes.
 */
function asBuffers(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) return value.map(asBuffers);
  if (value !== null && typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) (value as Record<string, unknown>)[key] = asBuffers(field);
  }
  return value;
}
