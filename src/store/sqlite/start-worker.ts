import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * Starts `name` (a module in this folder) on a worker thread. The built service runs the compiled
 * `.js`. Under ts-jest there is only the `.ts`: the worker's modules are transpiled here once per
 * test file, the way jest does for the main thread, and handed to a tiny loader in the worker
 * (typescript is a dev dependency; production never takes this branch).
 */
export function startWorker(name: string, workerData: unknown, resourceLimits: ResourceLimits = {}): Worker {
  const compiled = join(__dirname, `${name}.js`);
  if (existsSync(compiled)) return new Worker(compiled, { workerData, resourceLimits });
  const entry = join(__dirname, `${name}.ts`);
  return new Worker(SOURCE_LOADER, { eval: true, resourceLimits, workerData: { ...(workerData as object), entry, sources: transpiled(entry) } });
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
