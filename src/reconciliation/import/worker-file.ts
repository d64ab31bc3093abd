import { join } from 'node:path';

/**
 * The compiled module `name` in `dir` that a worker thread runs. Jest runs the TypeScript
 * sources, where there is no such file: its configuration maps this module to one that compiles
 * the worker's modules first (test/helpers/worker-file.ts), which is why the folder is passed.
 */
export function workerFile(name: string, dir: string): string {
  return join(dir, `${name}.js`);
}
