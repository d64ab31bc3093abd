import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFilePublisher } from '../../src/publishers/file-publisher';
import { ASYNCAPI_PATH, oneOfEveryKind } from '../helpers/event-contract';
import { codeBlocks, commandLines, REPO } from '../docs/doc-blocks';

/**
 * docs/queues.md's consumer project, saved file by file exactly as the page shows each one (the
 * line before a file's block is "`name`:"), compiled by its own `npm run build` with this
 * repository's TypeScript, and run on a file queue the real file publisher wrote. Only
 * `npm install` is replaced, by a link to this repository's node_modules: no network in tests.
 */
const QUEUES_MD = join('docs', 'queues.md');

function projectFiles(): Map<string, string> {
  const lines = readFileSync(join(REPO, QUEUES_MD), 'utf8').split('\n');
  const files = new Map<string, string>();
  for (const block of codeBlocks(QUEUES_MD)) {
    // block.line is the fence's 1-based line: the caption is the last non-empty line above it.
    let at = block.line - 2;
    while (at >= 0 && lines[at]!.trim() === '') at -= 1;
    const caption = /^`([\w.-]+)`:$/.exec(lines[at] ?? '');
    if (caption) files.set(caption[1]!, `${block.text}\n`);
  }
  return files;
}

function npm(dir: string, ...args: string[]): { code: number | null; output: string } {
  const result = spawnSync('npm', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: dir, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
    timeout: 120_000,
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("docs/queues.md's TypeScript consumer project", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'consumer-project-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('shows every file of the project, and the commands that build and run it', () => {
    expect([...projectFiles().keys()].sort()).toEqual(['consumer.ts', 'describe-event.ts', 'generate-queue-types.mjs', 'package.json', 'tsconfig.json']);
    const commands = codeBlocks(QUEUES_MD).flatMap(commandLines);
    for (const command of ['npm install', 'npm run types', 'npm run build']) expect(commands).toContain(command);
    expect(commands.some((line) => line.startsWith('npm start -- '))).toBe(true);
  });

  it('compiles as written (an ES module project under nodenext) and handles each event of a file queue once', async () => {
    for (const [name, text] of projectFiles()) writeFileSync(join(dir, name), text);
    // `npm install`, without the network: the same packages, from this repository.
    symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
    copyFileSync(ASYNCAPI_PATH, join(dir, 'asyncapi.json'));

    const events = oneOfEveryKind();
    const queue = join(dir, 'events.ndjson');
    const publisher = await openFilePublisher(queue);
    // The first event twice, as after a relay retry: the consumer handles it once.
    await publisher.publishBatch!([...events, events[0]!]);
    await publisher.close();

    const types = npm(dir, 'run', '--silent', 'types');
    expect(types).toEqual({ code: 0, output: '' });
    const build = npm(dir, 'run', '--silent', 'build');
    expect(build).toEqual({ code: 0, output: '' });
    const run = npm(dir, 'start', '--silent', '--', queue);
    expect(run.code).toBe(0);
    const lines = run.output.trimEnd().split('\n');
    expect(lines.map((line) => line.split(' ')[0])).toEqual(events.map((event) => event.id));
    const statusChange = events.find((event) => event.type === 'order.status_changed')!;
    const { order, from, to } = JSON.parse(statusChange.json) as { order: { shopOrderNo: string }; from: string | null; to: string };
    expect(lines).toContain(`${statusChange.id} ${order.shopOrderNo}: ${from ?? 'new'} -> ${to}`);
  }, 180_000);
});
