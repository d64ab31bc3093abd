import { Worker, type MessagePort } from 'node:worker_threads';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { FromIngest, IngestSetup, ToIngest } from './ingest-protocol';
import { workerFile } from './worker-file';

/** A loop that cannot answer a message this fast is not answering the gateway either. */
const HEALTH_TIMEOUT_MS = 1000;
const METRICS_TIMEOUT_MS = 2000;

export interface IngestHealth {
  /** The listener's loop answered within a second. */
  answering: boolean;
  loopDelayP99Ms: number | null;
}

export interface IngestThread {
  /** The gateway listener's port (the one it was given, or the one the system chose for 0). */
  readonly port: number;
  health(): Promise<IngestHealth>;
  /** The thread's metrics, or null when it did not answer in time (the scrape goes on without them). */
  metrics(): Promise<Array<MetricObjectWithValues<MetricValue<string>>> | null>;
  /** Stops the listener: no new request, those in flight answered and committed (at most `timeoutMs`). */
  drain(timeoutMs: number): Promise<void>;
  /** Ends the thread at once, as a crash would; the supervisor then does what it does after a crash. */
  terminate(): Promise<void>;
}

export interface IngestThreadOptions {
  simulatorKeys: readonly Buffer[];
  /** SQLite: the store's ports to its one writer (StoreDriver.writerPorts); absent on PostgreSQL. */
  writerPorts?: (onPort: (port: MessagePort) => void) => void;
  /** The thread ended without being drained (a crash, its heap limit): the process must not go on without it. */
  onLost: (reason: string) => void;
  /** The environment the thread reads its configuration from; the process's by default. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts the gateway's listener on its own thread (ingest-worker.ts) and resolves once it listens.
 * Rejects when it cannot (the port taken, its store not reached): a receiver that answers the
 * console but not the gateway must not start.
 */
export function startIngestThread(options: IngestThreadOptions): Promise<IngestThread> {
  let firstPort: MessagePort | null = null;
  let worker: Worker | null = null;
  // The first port is taken now, synchronously, so the thread has its writer before it listens.
  options.writerPorts?.((port) => {
    if (!worker) firstPort = port;
    else worker.postMessage({ type: 'writer-port', port } satisfies ToIngest, [port]);
  });
  const setup: IngestSetup = { simulatorKeys: options.simulatorKeys.map((key) => new Uint8Array(key)), writerPort: firstPort };
  const started = new Worker(workerFile('ingest-worker', __dirname), {
    workerData: setup,
    transferList: firstPort ? [firstPort] : [],
    env: options.env ?? process.env,
  });
  worker = started;

  let nextId = 1;
  const waiting = new Map<number, (message: FromIngest) => void>();
  let drained: (() => void) | null = null;
  let draining = false;
  const ask = <T>(type: 'metrics' | 'health', timeoutMs: number, answer: (message: FromIngest | null) => T): Promise<T> => {
    const id = nextId++;
    return new Promise<T>((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve(answer(null));
      }, timeoutMs);
      waiting.set(id, (message) => {
        clearTimeout(timer);
        resolve(answer(message));
      });
      started.postMessage({ type, id } satisfies ToIngest);
    });
  };

  return new Promise((resolve, reject) => {
    let listening = false;
    started.on('message', (message: FromIngest) => {
      if (message.type === 'listening') {
        listening = true;
        resolve({
          port: message.port,
          health: () => ask('health', HEALTH_TIMEOUT_MS, (reply) => ({
            answering: reply !== null,
            loopDelayP99Ms: reply?.type === 'health' ? reply.loopDelayP99Ms : null,
          })),
          metrics: () => ask('metrics', METRICS_TIMEOUT_MS, (reply) => (reply?.type === 'metrics' ? reply.metrics : null)),
          drain(timeoutMs) {
            draining = true;
            const done = new Promise<void>((resolveDrain) => (drained = resolveDrain));
            started.postMessage({ type: 'drain', timeoutMs } satisfies ToIngest);
            return done;
          },
          terminate: async () => void (await started.terminate()),
        });
      } else if (message.type === 'failed') {
        if (!listening) reject(new Error(`the gateway listener could not start: ${message.error}`));
        else options.onLost(`the gateway listener failed: ${message.error}`);
        void started.terminate();
      } else if (message.type === 'drained') {
        drained?.();
      } else {
        const settle = waiting.get(message.id);
        waiting.delete(message.id);
        settle?.(message);
      }
    });
    let failure = '';
    started.on('error', (error) => {
      failure = error.stack ?? error.message;
    });
    started.once('exit', (code) => {
      drained?.();
      const reason = `the gateway listener's thread ended (exit code ${code})${failure ? `: ${failure}` : ''}`;
      if (!listening) reject(new Error(reason));
      else if (!draining) options.onLost(reason);
    });
  });
}
