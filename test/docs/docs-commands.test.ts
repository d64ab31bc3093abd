import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program';
import { loadConfig } from '../../src/config/env';
import { codeBlocks, commandLines, documentationFiles, inlineCode, REPO } from './doc-blocks';
import { freePort, freshCheckout, runBash } from './fresh-checkout';

const files = documentationFiles();
const blocks = files.flatMap(codeBlocks);
/** Every command line and inline code span a reader may copy, with where it is. */
const snippets = [
  ...blocks.flatMap((block) => commandLines(block).map((text) => ({ where: `${block.file}:${block.line}`, text }))),
  ...files.flatMap((file) => inlineCode(file).map((text) => ({ where: file, text }))),
];
const scripts = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
/** Scripts of a project a page shows whole (docs/queues.md's consumer has its own package.json): its commands name those. */
function shownScripts(where: string): Set<string> {
  const file = where.replace(/:\d+$/, '');
  return new Set(
    blocks
      .filter((block) => block.file === file && block.lang === 'json')
      .flatMap((block) => {
        try {
          return Object.keys((JSON.parse(block.text) as { scripts?: Record<string, string> }).scripts ?? {});
        } catch {
          return [];
        }
      }),
  );
}
const program = buildProgram({ env: {}, stdout: () => undefined, stderr: () => undefined });
const longOptions = (command: Command) => command.options.map((option) => option.long).filter(Boolean);

describe('what the README and docs/ tell a reader to type', () => {
  it('names only npm scripts package.json has', () => {
    const missing = snippets.flatMap(({ where, text }) =>
      [...text.matchAll(/\bnpm (?:run(?: --silent)? ([\w:-]+)|(start|test)\b)/g)]
        .map((match) => match[1] ?? match[2]!)
        .filter((name) => !(name in scripts) && !shownScripts(where).has(name))
        .map((name) => `${where}: npm run ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('names only noti-receiver commands and options the CLI registers', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const { where, text } of snippets) {
      for (const match of text.matchAll(/(?:npm run(?: --silent)? cli --|(?<![\w-])(?:npx )?noti-receiver)((?:\s+[^\s|;&#]+)*)/g)) {
        checked += 1;
        problems.push(...cliProblems(match[1]!.trim().split(/\s+/).filter(Boolean)).map((p) => `${where}: ${p} in "${text}"`));
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  it('names only simulator options the simulator has', () => {
    const help = spawnSync(process.execPath, [join(REPO, 'dist', 'simulator', 'simulate-cli.js'), '--help'], { encoding: 'utf8' }).stdout;
    const unknown = snippets.flatMap(({ where, text }) =>
      [...text.matchAll(/npm run(?: --silent)? simulate --(.*)/g)].flatMap((match) =>
        [...match[1]!.matchAll(/(--[a-z][\w-]*)/g)].map((option) => option[1]!).filter((option) => !help.includes(option)).map((option) => `${where}: ${option}`),
      ),
    );
    expect(unknown).toEqual([]);
  });

  it('names only environment variables the code reads', () => {
    const code = sourceText(['src', 'test', 'bench', '.ci', 'compose.yaml']);
    const named = new Set<string>();
    for (const { text } of snippets) {
      for (const match of text.matchAll(/(?:^|\s)([A-Z][A-Z0-9_]*)=/g)) named.add(match[1]!);
      if (/^(?:[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]|PORT|HOST)$/.test(text)) named.add(text);
    }
    // Read by node itself, not by this code (NODE_DEBUG by util.debuglog, which src/thread-priority.ts uses).
    const node = new Set(['NODE_OPTIONS', 'NODE_DEBUG']);
    const unread = [...named].filter((name) => !node.has(name) && !new RegExp(`\\b${name}\\b`).test(code));
    expect(named.size).toBeGreaterThan(10);
    expect(unread).toEqual([]);
  });

  it('sets configuration variables only to values the configuration accepts', () => {
    const refused = snippets.flatMap(({ where, text }) =>
      [...text.matchAll(/(?:^|\s)([A-Z][A-Z0-9_]*)=([^\s<…$`'"]+)(?=\s|$)/g)]
        .filter(([, name]) => new RegExp(`^\\s+${name}:`, 'm').test(readFileSync(join(REPO, 'src', 'config', 'env.ts'), 'utf8')))
        .flatMap(([, name, value]) => {
          // A value valid only with PostgreSQL (ROLE=ingest) is checked with a PostgreSQL URL beside it.
          const attempts = [{}, { DATABASE_URL: 'postgres://receiver@db.example/receiver' }];
          const errors = attempts.flatMap((others) => {
            try {
              loadConfig({ ...others, [name!]: value });
              return [];
            } catch (error) {
              return [`${where}: ${(error as Error).message}`];
            }
          });
          return errors.length === attempts.length ? errors.slice(0, 1) : [];
        }),
    );
    expect(refused).toEqual([]);
  });

  it('lists every configuration variable in .env.example', () => {
    const example = readFileSync(join(REPO, '.env.example'), 'utf8');
    const schema = readFileSync(join(REPO, 'src', 'config', 'env.ts'), 'utf8');
    const variables = [...schema.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]!);
    expect(variables.filter((name) => !new RegExp(`^#?\\s*${name}=`, 'm').test(example))).toEqual([]);
  });
});

describe('runnable examples (marked <!-- ci: run -->)', () => {
  const runnable = blocks.filter((block) => block.run);

  it('exist, so this suite cannot pass by finding none', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(2);
  });

  it.each(runnable.map((block) => [`${block.file}:${block.line}`, block]))('%s runs as written on a fresh checkout', async (_where, block) => {
    const sandbox = freshCheckout();
    try {
      const [port, adminPort] = [await freePort(), await freePort()];
      // The ports are the only thing changed: the machine is shared, 8080 may be taken.
      const result = await runBash(block.text, sandbox, { PORT: String(port), ADMIN_PORT: String(adminPort) });
      expect({ exit: result.code, output: result.output }).toEqual({ exit: block.run!.exit, output: expect.any(String) });
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
  }, 240_000);
});

function cliProblems(words: string[]): string[] {
  let command: Command = program;
  const problems: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    if (word === '--' || /^[<[$"'`…]/.test(word) || /^\d+$/.test(word) || word.startsWith('evt_')) continue;
    if (word.startsWith('-')) {
      const option = word.split('=')[0]!;
      const known = [...longOptions(command), ...longOptions(program), '--help', '-h'];
      if (!known.includes(option)) problems.push(`unknown option ${option} for "${command.name()}"`);
      else if (option === '--database-url' || option === '--status' || option === '--type' || option === '--order' || option === '--since' || option === '--limit' || option === '--admin-url') i += 1;
      // An option that takes a value (`--from <yyyy-mm-dd>`) is followed by it, not by a command: `summary` has subcommands.
      else if (!word.includes('=') && [...command.options, ...program.options].some((o) => o.long === option && (o.required || o.optional))) i += 1;
      continue;
    }
    if (command.commands.length === 0) continue; // an argument
    const alternatives = word.split('|');
    const next = alternatives.map((name) => command.commands.find((c) => c.name() === name));
    if (next.some((c) => !c)) {
      problems.push(`unknown command "${word}" under "${command.name()}"`);
      break;
    }
    command = next[0]!;
  }
  return problems;
}

function sourceText(paths: string[]): string {
  const walk = (path: string): string[] =>
    statSync(path).isDirectory() ? readdirSync(path).flatMap((name) => walk(join(path, name))) : [readFileSync(path, 'utf8')];
  return paths.flatMap((path) => walk(join(REPO, path))).join('\n');
}
