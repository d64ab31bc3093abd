import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import Redis from 'ioredis';
import ts from 'typescript';
import { openHttpPublisher } from '../../src/publishers/http-publisher';
import { openRedisPublisher } from '../../src/publishers/redis-publisher';
import { ASYNCAPI_PATH, oneOfEveryKind } from '../helpers/event-contract';
import { eventually } from '../helpers/eventually';
import { codeBlocks, REPO, type CodeBlock } from '../docs/doc-blocks';

/**
 * docs/queues.md's consumer examples, run as a merchant's engineer would copy them: the type
 * generator against the committed document, the handler typechecked against what it wrote,
 * and the Redis and HTTP consumers receiving what the real publishers send.
 */
const blocks = codeBlocks(join('docs', 'queues.md'));
const block = (lang: string, starts: string): CodeBlock => {
  const found = blocks.find((b) => b.lang === lang && b.text.startsWith(starts));
  if (!found) throw new Error(`docs/queues.md has no ${lang} block starting with ${starts}`);
  return found;
};

/** A folder under the repository's node_modules, so the examples' imports resolve to its packages. */
function workspace(): string {
  return mkdtempSync(join(REPO, 'node_modules', '.queue-examples-'));
}

function typecheck(dir: string, file: string, source: string): string[] {
  writeFileSync(join(dir, file), source);
  const program = ts.createProgram([join(dir, file)], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

function runNode(dir: string, file: string, env: Record<string, string> = {}): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [file], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** A TypeScript example as the ES module a merchant would run (top-level await included). */
function asModule(source: string): string {
  return ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
}

async function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe("docs/queues.md's consumer examples", () => {
  let dir: string;
  let child: ChildProcess | null = null;
  beforeEach(() => {
    dir = workspace();
  });
  afterEach(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
    child = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it('generates TypeScript types from the document that check a handler, and refuse a wrong field', async () => {
    copyFileSync(ASYNCAPI_PATH, join(dir, 'asyncapi.json'));
    writeFileSync(join(dir, 'generate-queue-types.mjs'), block('js', "import { readFileSync, writeFileSync } from 'node:fs';").text);
    const generator = runNode(dir, 'generate-queue-types.mjs');
    child = generator.child;
    expect({ exit: await exited(generator.child), output: generator.output() }).toEqual({ exit: 0, output: '' });

    const handler = block('ts', "import type { QueueEvent } from './queue-events.js';").text;
    expect(typecheck(dir, 'handler.ts', handler)).toEqual([]);
    // The types have teeth: a payment event has no order, an order event no data.
    const wrong = handler.replace('return `${event.pgCno} approved', 'return `${event.order.shopOrderNo} approved');
    expect(typecheck(dir, 'wrong.ts', wrong).join('\n')).toMatch(/Property 'order' does not exist/);
  }, 60_000);

  (process.env.TEST_REDIS_URL ? it : it.skip)('the Redis consumer runs as written and handles each event the publisher sends', async () => {
    const stream = `queue-example-${process.pid}-${Date.now().toString(36)}`;
    const example = block('ts', "import Redis from 'ioredis';").text.replace("const stream = 'payment-notifications';", `const stream = '${stream}';`);
    expect(example).toContain(stream);
    writeFileSync(join(dir, 'consumer.mjs'), asModule(example));
    const consumer = runNode(dir, 'consumer.mjs');
    child = consumer.child;
    const publisher = openRedisPublisher({ url: 'redis://127.0.0.1:6379/0', queueName: stream });
    try {
      const events = oneOfEveryKind();
      await publisher.publishBatch!(events);
      const expected = events.map((event) => `handled ${event.id} ${event.type}`);
      await eventually(() => expected.every((line) => consumer.output().includes(line)), 15_000, `the consumer to handle every event; it printed: ${consumer.output()}`);
    } finally {
      await publisher.close();
      const redis = new Redis('redis://127.0.0.1:6379/0');
      await redis.del(stream);
      await redis.quit();
    }
  }, 60_000);

  it("the HTTP consumer runs as written on its own port and takes each event the publisher POSTs", async () => {
    const port = await freePort();
    const example = block('ts', "import express from 'express';").text.replace('app.listen(8090);', `app.listen(${port});`);
    expect(example).toContain(`app.listen(${port})`);
    writeFileSync(join(dir, 'endpoint.mjs'), asModule(example));
    const endpoint = runNode(dir, 'endpoint.mjs');
    child = endpoint.child;
    const publisher = openHttpPublisher({ url: `http://127.0.0.1:${port}/payment-events` });
    try {
      const events = oneOfEveryKind();
      await eventually(() => publisher.publish(events[0]!).then(() => true, () => false), 15_000, 'the endpoint to listen');
      for (const event of events.slice(1)) await publisher.publish(event);
      expect(events.map((event) => endpoint.output().includes(`handled ${event.id} ${event.type}`))).toEqual(events.map(() => true));
    } finally {
      await publisher.close();
    }
  }, 60_000);
});
