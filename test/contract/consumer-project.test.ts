import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFilePublisher } from '../../src/publishers/file-publisher';
import { ASYNCAPI_PATH, oneOfEveryKind } from '../helpers/event-contract';
import { claimBlocks, commandLines, MARK_LINE, REPO, type CodeBlock } from '../docs/doc-blocks';

/**
 * docs/queues.md's consumer project, saved file by file exactly as the page shows each one (the
 * line before a file's block is "`name`:"), then its shell block run as written: the document
 * copied from the receiver's folder, the types generated, `npm run build` with this repository's
 * TypeScript, and the consumer run on a file queue the real file publisher wrote there. Only
 * `npm install` is replaced, by a link to this repository's node_modules: no network in tests.
 */
const QUEUES_MD = join('docs', 'queues.md');
const claims = claimBlocks('test/contract/consumer-project.test.ts');
const FILES = ['package.json', 'tsconfig.json', 'generate-queue-types.mjs', 'describe-event.ts', 'consumer.ts'];
const STARTS: Record<string, [string, string]> = {
  'package.json': ['json', '{\n  "name": "payment-events-consumer"'],
  'tsconfig.json': ['json', '{\n  "compilerOptions"'],
  'generate-queue-types.mjs': ['js', "import { readFileSync, writeFileSync } from 'node:fs';"],
  'describe-event.ts': ['ts', "import type { QueueEvent } from './queue-events.js';"],
  'consumer.ts': ['ts', "import { createReadStream } from 'node:fs';"],
};
const fileBlocks = new Map(FILES.map((name) => [name, claims.take(QUEUES_MD, ...STARTS[name]!)]));
const shell = claims.take(QUEUES_MD, 'sh', ': "${RECEIVER_DIR:?');

/** The file name a block is captioned with: the last non-empty line above it that is not a ci mark. */
function caption(block: CodeBlock): string | null {
  const lines = readFileSync(join(REPO, QUEUES_MD), 'utf8').split('\n');
  let at = block.line - 2;
  while (at >= 0 && (lines[at]!.trim() === '' || MARK_LINE.test(lines[at]!))) at -= 1;
  return /^`([\w.-]+)`:$/.exec(lines[at] ?? '')?.[1] ?? null;
}

function run(dir: string, command: string, args: string[], env: Record<string, string> = {}): { code: number | null; output: string } {
  const result = spawnSync(command, args, {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: dir, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...env },
    timeout: 150_000,
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("docs/queues.md's TypeScript consumer project", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'consumer-project-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs every block the page marks for this suite', () => {
    expect(claims.untaken()).toEqual([]);
  });

  it('shows every file of the project under its name, and the commands that build and run it', () => {
    expect(FILES.map((name) => caption(fileBlocks.get(name)!))).toEqual(FILES);
    const commands = commandLines(shell);
    for (const command of ['npm install', 'npm run types', 'npm run build']) expect(commands).toContain(command);
    expect(commands.some((line) => line.startsWith('npm start -- '))).toBe(true);
    // No folder name is assumed: the receiver's folder is the one the reader names.
    expect(shell.text).not.toMatch(/\.\.\//);
  });

  it('stops at its first line, saying what to set, when RECEIVER_DIR is not set', () => {
    const result = run(dir, 'bash', ['-e', '-c', shell.text]);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('set RECEIVER_DIR to the folder of the receiver');
  });

  it('compiles as written (an ES module project under nodenext) and handles each event of a file queue once', async () => {
    for (const [name, block] of fileBlocks) writeFileSync(join(dir, name), `${block.text}\n`);
    // The receiver's folder as it is after `npm start` on its defaults: its document, and the file queue.
    const receiver = join(dir, 'receiver checkout');
    mkdirSync(join(receiver, 'docs'), { recursive: true });
    mkdirSync(join(receiver, 'data'));
    copyFileSync(ASYNCAPI_PATH, join(receiver, 'docs', 'asyncapi.json'));
    const events = oneOfEveryKind();
    const publisher = await openFilePublisher(join(receiver, 'data', 'events.ndjson'));
    // The first event twice, as after a relay retry: the consumer handles it once.
    await publisher.publishBatch!([...events, events[0]!]);
    await publisher.close();

    // `npm install`, without the network: the same packages, from this repository.
    expect(shell.text).toMatch(/^npm install$/m);
    const script = shell.text.replace(/^npm install$/m, `ln -s '${join(REPO, 'node_modules')}' node_modules`).replace(/^npm (run|start)\b/gm, 'npm $1 --silent');
    const result = run(dir, 'bash', ['-e', '-o', 'pipefail', '-c', script], { RECEIVER_DIR: receiver });
    expect(result.code).toBe(0);
    const lines = result.output.trimEnd().split('\n');
    expect(lines.map((line) => line.split(' ')[0])).toEqual(events.map((event) => event.id));
    const statusChange = events.find((event) => event.type === 'order.status_changed')!;
    const { order, from, to } = JSON.parse(statusChange.json) as { order: { shopOrderNo: string }; from: string | null; to: string };
    expect(lines).toContain(`${statusChange.id} ${order.shopOrderNo}: ${from ?? 'new'} -> ${to}`);

    // The generated types have teeth: a payment event has no order, so a handler reading one does not compile.
    const handler = fileBlocks.get('describe-event.ts')!.text;
    writeFileSync(join(dir, 'describe-event.ts'), handler.replace('return `${event.pgCno} approved', 'return `${event.order.shopOrderNo} approved'));
    const wrong = run(dir, 'npm', ['run', '--silent', 'build']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.output).toMatch(/Property 'order' does not exist/);
  }, 240_000);
});
