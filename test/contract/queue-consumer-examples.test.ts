import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import amqp from 'amqplib';
import Redis from 'ioredis';
import { connect } from 'nats';
import ts from 'typescript';
import { openAmqpPublisher } from '../../src/publishers/amqp-publisher';
import { openHttpPublisher } from '../../src/publishers/http-publisher';
import { openNatsPublisher } from '../../src/publishers/nats-publisher';
import type { OutboundEvent } from '../../src/publishers/publisher';
import { openRedisPublisher } from '../../src/publishers/redis-publisher';
import { oneOfEveryKind } from '../helpers/event-contract';
import { eventually } from '../helpers/eventually';
import { claimBlocks, REPO } from '../docs/doc-blocks';
import { uniqueName } from '../publishers/broker-env';

/**
 * docs/queues.md's broker consumers, run as a merchant's engineer would copy them: typechecked
 * strictly, then run as ES modules with the receiver's QUEUE_URL and a QUEUE_NAME other than the
 * default in their environment, receiving what the real publishers send to that name.
 */
const QUEUES_MD = join('docs', 'queues.md');
const claims = claimBlocks('test/contract/queue-consumer-examples.test.ts');
const rabbit = claims.take(QUEUES_MD, 'ts', "import amqp from 'amqplib';").text;
const ledgerBindings = claims.take(QUEUES_MD, 'ts', "await channel.bindQueue(queue, exchange, 'order.*');").text;
const nats = claims.take(QUEUES_MD, 'ts', "import { AckPolicy, connect } from 'nats';").text;
const redis = claims.take(QUEUES_MD, 'ts', "import { Redis } from 'ioredis';").text;
const http = claims.take(QUEUES_MD, 'ts', "import express from 'express';").text;
const ALL_BINDING = "await channel.bindQueue(queue, exchange, '#');";
const handled = (events: OutboundEvent[]): string[] => events.map((event) => `handled ${event.id} ${event.type}`);

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
  // Only what a merchant's shell would have, plus the receiver's settings the example reads.
  const child = spawn(process.execPath, [file], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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

  it('runs every block the page marks for this suite', () => {
    expect(claims.untaken()).toEqual([]);
  });

  it('typecheck as written under strict nodenext, each defining every function it calls', () => {
    const problems = [rabbit, nats, redis, http].flatMap((source, i) => typecheck(dir, `example-${i}.mts`, source));
    expect(problems).toEqual([]);
  }, 60_000);

  it('read the exchange, stream or subjects from QUEUE_NAME, never a name of their own', () => {
    for (const source of [rabbit, nats, redis]) {
      expect(source).toContain("process.env.QUEUE_NAME ?? 'payment-notifications'");
      expect(source.match(/'payment-notifications'/g)).toHaveLength(1);
    }
  });

  (process.env.TEST_AMQP_URL ? it : it.skip)('the RabbitMQ consumer runs as written and handles each event published to a QUEUE_NAME that is not the default', async () => {
    const url = process.env.TEST_AMQP_URL!;
    const exchange = uniqueName('shop-events');
    const queue = uniqueName('merchant-orders');
    // Only its own queue's name changes, so runs beside it on the same broker never share one.
    const example = rabbit.replace("'merchant-orders'", `'${queue}'`);
    expect(example).toContain(queue);
    const events = oneOfEveryKind();
    try {
      await consumeWith(example, { QUEUE_URL: url, QUEUE_NAME: exchange }, exchange, events, handled(events));
    } finally {
      await dropAmqp(url, exchange, queue);
    }
  }, 60_000);

  (process.env.TEST_AMQP_URL ? it : it.skip)("the ledger's two bindings, in place of '#', bring the order and ledger events and nothing else", async () => {
    const url = process.env.TEST_AMQP_URL!;
    const exchange = uniqueName('shop-events');
    const queue = uniqueName('merchant-ledger');
    expect(rabbit).toContain(ALL_BINDING);
    const example = rabbit.replace("'merchant-orders'", `'${queue}'`).replace(ALL_BINDING, ledgerBindings);
    const events = oneOfEveryKind();
    const ledger = events.filter((event) => /^(order|ledger)\./.test(event.type));
    expect(ledger.length).toBeGreaterThanOrEqual(3);
    // One more ledger event last: a queue keeps the exchange's order, so once it is handled every
    // event before it that the bindings let through has been handled too.
    const last = { ...ledger[0]!, id: `${ledger[0]!.id}_last` };
    try {
      const output = await consumeWith(example, { QUEUE_URL: url, QUEUE_NAME: exchange }, exchange, [...events, last], handled([last]));
      expect(output.split('\n').filter((line) => line.startsWith('handled '))).toEqual(handled([...ledger, last]));
    } finally {
      await dropAmqp(url, exchange, queue);
    }
  }, 60_000);

  (process.env.TEST_NATS_URL ? it : it.skip)('the NATS consumer runs as written and handles each event of a QUEUE_NAME that is not the default', async () => {
    const url = process.env.TEST_NATS_URL!;
    const stream = uniqueName('shop_events').replace(/-/g, '_');
    const publisher = await openNatsPublisher({ url, queueName: stream });
    const events = oneOfEveryKind();
    try {
      // The receiver makes the stream; the consumer's durable reads it from its start.
      await publisher.publishBatch!(events);
      writeFileSync(join(dir, 'consumer.mjs'), asModule(nats));
      const consumer = runNode(dir, 'consumer.mjs', { QUEUE_URL: url, QUEUE_NAME: stream });
      child = consumer.child;
      await eventually(() => handled(events).every((line) => consumer.output().includes(line)), 15_000, `the consumer to handle every event; it printed: ${consumer.output()}`);
    } finally {
      await publisher.close();
      const nc = await connect({ servers: new URL(url).host });
      await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
      await nc.close();
    }
  }, 60_000);

  (process.env.TEST_REDIS_URL ? it : it.skip)('the Redis consumer runs as written and handles each event the publisher sends', async () => {
    const url = `${process.env.TEST_REDIS_URL!.replace(/\/\d*$/, '')}/0`;
    const stream = uniqueName('shop-events');
    writeFileSync(join(dir, 'consumer.mjs'), asModule(redis));
    // The receiver's own QUEUE_URL, its maxlen query included: the example leaves that to the receiver.
    const consumer = runNode(dir, 'consumer.mjs', { QUEUE_URL: `${url}?maxlen=1000`, QUEUE_NAME: stream });
    child = consumer.child;
    const publisher = openRedisPublisher({ url, queueName: stream });
    try {
      const events = oneOfEveryKind();
      await publisher.publishBatch!(events);
      await eventually(() => handled(events).every((line) => consumer.output().includes(line)), 15_000, `the consumer to handle every event; it printed: ${consumer.output()}`);
    } finally {
      await publisher.close();
      const client = new Redis(url);
      await client.del(stream);
      await client.quit();
    }
  }, 60_000);

  it("the HTTP consumer runs as written on its own port and takes each event the publisher POSTs", async () => {
    const port = await freePort();
    const example = http.replace('app.listen(8090);', `app.listen(${port});`);
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

  /** Runs a RabbitMQ example, waits until it has bound its queue, publishes `events` to `exchange` and waits for `expected`. */
  async function consumeWith(example: string, env: Record<string, string>, exchange: string, events: OutboundEvent[], expected: string[]): Promise<string> {
    writeFileSync(join(dir, 'consumer.mjs'), asModule(example));
    const consumer = runNode(dir, 'consumer.mjs', env);
    child = consumer.child;
    // A topic exchange drops what no binding matches: publish only once the example says it is bound.
    await eventually(() => consumer.output().includes(`bound to exchange ${exchange}`), 15_000, `the consumer to bind; it printed: ${consumer.output()}`);
    const publisher = openAmqpPublisher({ url: env.QUEUE_URL!, exchange });
    try {
      await publisher.publishBatch!(events);
    } finally {
      await publisher.close();
    }
    await eventually(() => expected.every((line) => consumer.output().includes(line)), 15_000, `the consumer to handle every event; it printed: ${consumer.output()}`);
    return consumer.output();
  }
});

async function dropAmqp(url: string, exchange: string, queue: string): Promise<void> {
  const model = await amqp.connect(url);
  const channel = await model.createChannel();
  await channel.deleteQueue(queue);
  await channel.deleteExchange(exchange);
  await model.close();
}
