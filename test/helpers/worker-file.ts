import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * What jest gives src/store/sqlite/start-worker.ts in place of src/store/sqlite/worker-file.ts
 * (jest.config.js maps it), and the console's page thread in place of src/console/render/worker-file.ts
 * (which names its folder, `dir`): a worker thread runs JavaScript from a file, and under jest there are
 * only the TypeScript sources. The worker's module and every relative module it requires are
 * transpiled the way ts-jest does for the main thread, into a folder named by the sources' hash
 * (so parallel test files share it and an edit makes a new one), beside links to node_modules and
 * migrations so that packages and the migrations' folder resolve as they do from dist/.
 */
const ROOT = resolve(__dirname, '../..');
const SQLITE_DIR = join(ROOT, 'src/store/sqlite');

export function workerFile(name: string, dir = SQLITE_DIR): string {
  const sources = transpiled(join(dir, `${name}.ts`));
  const hash = createHash('sha256');
  for (const file of Object.keys(sources).sort()) hash.update(file).update('\0').update(sources[file]!).update('\0');
  const target = join(tmpdir(), `noti-receiver-workers-${hash.digest('hex').slice(0, 16)}`);
  for (const [file, output] of Object.entries(sources)) {
    const written = join(target, relative(ROOT, file).replace(/\.ts$/, '.js'));
    if (existsSync(written)) continue;
    mkdirSync(dirname(written), { recursive: true });
    // Another test file may be writing the same file now: each writes its own, then renames.
    const partial = `${written}.${process.pid}`;
    writeFileSync(partial, output);
    renameSync(partial, written);
  }
  for (const linked of ['node_modules', 'migrations']) {
    try {
      symlinkSync(join(ROOT, linked), join(target, linked));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return join(target, relative(ROOT, dir), `${name}.js`);
}

const cache = new Map<string, string>();

/** The entry and every relative module it requires, as CommonJS JavaScript by file name. */
function transpiled(entry: string): Record<string, string> {
  const sources: Record<string, string> = {};
  const visit = (file: string) => {
    if (file in sources) return;
    // Once per test file: the three workers share most of their modules, and the reader starts
    // at the first read, while a request may be waiting for it.
    let output = cache.get(file);
    if (output === undefined) {
      output = ts.transpileModule(readFileSync(file, 'utf8'), {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      }).outputText;
      cache.set(file, output);
    }
    sources[file] = output;
    // A static import becomes require("…"); a dynamic import() keeps its own quotes, require('…').
    for (const [, , specifier] of output.matchAll(/require\((["'])(\.{1,2}\/[^"']+)\1\)/g)) {
      const base = resolve(dirname(file), specifier!);
      const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
      if (target) visit(target);
    }
  };
  visit(entry);
  return sources;
}
