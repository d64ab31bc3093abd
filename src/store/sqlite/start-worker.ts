import { setFlagsFromString } from 'node:v8';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { workerFile } from './worker-file';

/** Starts `name` (a module in this folder) on a worker thread. */
export function startWorker(name: string, workerData: unknown, resourceLimits: ResourceLimits = {}): Worker {
  letWorkerSizeItsYoungGeneration();
  return new Worker(workerFile(name), { workerData, resourceLimits });
}

/**
 * Asks a worker that answers 'close' to finish and waits until it has exited. The checkpointer and
 * the reader are unref'd so they never keep a process alive on their own; without the ref taken
 * here a process with nothing else left to do (the CLI after a write) ended in the middle of
 * closing the store, before its output, its exit code, the read connection and the lock.
 */
export async function stopWorker(worker: Worker): Promise<void> {
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.ref();
  worker.postMessage('close');
  await exited;
}

/**
 * V8's flags are the process's, and `--max-semi-space-size` (which npm start gives node for the
 * main thread's heap) wins over a worker's own `resourceLimits`: the writer's young generation
 * would take the main thread's 16 MB instead of its own 6. Each isolate reads the flag when it
 * is created, so clearing it now leaves the main thread's heap as node started it and lets every
 * worker created afterwards take its own limits.
 */
function letWorkerSizeItsYoungGeneration(): void {
  setFlagsFromString('--max-semi-space-size=0');
}
