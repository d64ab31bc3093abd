import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program';
import { REPO } from './doc-blocks';

/**
 * The product contract the code was written against is not in the repository: a user who reads
 * "SPEC section 7" has nothing to open. What users read (the README, docs/, .env.example, the
 * deploy pack, the benchmark report, every --help and every message the code prints) must say the
 * rule itself or link a file they have.
 */
const CITES_SPEC = /\bSPEC\b/;

const textFiles = (dir: string): string[] =>
  readdirSync(join(REPO, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(REPO, path)).isDirectory()) return textFiles(path);
    return /\.(md|json|ya?ml)$/.test(name) ? [path] : [];
  });

const USER_FILES = ['README.md', 'BENCHMARKS.md', '.env.example', ...textFiles('docs'), ...textFiles('deploy')];

function citing(name: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (CITES_SPEC.test(line) ? [`${name}:${i + 1}: ${line.trim()}`] : []));
}

/** Every command's help, the root's and each subcommand's, as `--help` prints it. */
function helpTexts(command: Command, path = command.name()): Array<[string, string]> {
  return [[path, command.helpInformation()], ...command.commands.flatMap((sub) => helpTexts(sub, `${path} ${sub.name()}`))];
}

/** Source without its comments: what is left are the strings a user can be shown. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, '')).replace(/(^|\s)\/\/.*$/gm, '$1');
}

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });

describe('what users read never cites the SPEC, which they do not have', () => {
  it('finds the files it checks, so it cannot pass by reading nothing', () => {
    expect(USER_FILES).toEqual(expect.arrayContaining(['README.md', '.env.example', 'docs/ledger.md', 'docs/openapi.json', 'deploy/alerts.yml']));
  });

  it.each(USER_FILES)('%s', (file) => {
    expect(citing(file, readFileSync(join(REPO, file), 'utf8'))).toEqual([]);
  });

  it('no --help of the operator CLI (every command and subcommand, the sandbox included)', () => {
    const io = { env: {}, stdout: () => {}, stderr: () => {} };
    const helps = helpTexts(buildProgram(io));
    expect(helps.length).toBeGreaterThan(20);
    expect(helps.flatMap(([name, text]) => citing(`noti-receiver ${name} --help`, text))).toEqual([]);
  });

  it("no --help of the simulator", () => {
    const run = spawnSync(process.execPath, [join(REPO, 'dist', 'simulator', 'simulate-cli.js'), '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(citing('simulate --help', run.stdout)).toEqual([]);
  });

  it('no message, page or API description the code holds (its strings, outside comments)', () => {
    const found = sourceFiles(join(REPO, 'src')).flatMap((file) => citing(relative(REPO, file), withoutComments(readFileSync(file, 'utf8'))));
    expect(found).toEqual([]);
  });
});
