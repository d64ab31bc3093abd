import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * Starts `name` (a module in this folder) on a worker thread. The built service runs the compiled
 * `.js`. Under ts-jest there is only the `.ts`: the worker's modules are transpiled here once per
 * test file, the way jest does for the main thread, and handed to a tiny loader in the worker
 * (typescript is a dev dependency; production never takes this branch).
 */
export function startWorker(name: string, workerData: unknown, resourceLimits: ResourceLimits = {}): Worker {
  letWorkerSizeItsYoungGeneration();
  const compiled = join(__dirname, `${name}.js`);
  if (existsSync(compiled)) return new Worker(compiled, { workerData, resourceLimits });
  const entry = join(__dirname, `${name}.ts`);
  return new Worker(SOURCE_LOADER, { eval: true, resourceLimits, workerData: { ...(workerData as object), entry, sources: transpiled(entry) } });
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
 * grew to 16 MB instead of its 6, measured at 128 connections. Each isolate reads the flag when it
 * is created, so clearing it now leaves the main thread's heap as node started it and lets every
 * worker created afterwards take its own limits.
 */
function letWorkerSizeItsYoungGeneration(): void {
  setFlagsFromString('--max-semi-space-size=0');
}

const cache = new Map<string, string>();

/** The entry and every relative module it requires, as CommonJS JavaScript by file name. */
function transpiled(entry: string): Record<string, string> {
  const ts = require('typescript') as typeof import('typescript');
  const sources: Record<string, string> = {};
  const visit = (file: string) => {
    if (file in sources) return;
    let output = cache.get(file);
    if (output === undefined) {
      output = ts.transpileModule(readFileSync(file, 'utf8'), {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      }).outputText;
      cache.set(file, output);
    }
    sources[file] = output;
    for (const [, specifier] of output.matchAll(/require\("(\.{1,2}\/[^"]+)"\)/g)) {
      const base = resolve(dirname(file), specifier!);
      const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
      if (target) visit(target);
    }
  };
  visit(entry);
  return sources;
}

const SOURCE_LOADER = `
const { workerData } = require('node:worker_threads');
require.extensions['.ts'] = (module, filename) => module._compile(workerData.sources[filename], filename);
require(workerData.entry);
`;
