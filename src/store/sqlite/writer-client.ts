import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import type { WriteName } from '../procedures';
import { startWorker } from './start-worker';
import { WriteChannel } from './write-channel';
import type { FromWriter, ToWriter, WriterSetup } from './writer-protocol';

/**
 * A batch's rows live for a commit or two, so a young generation of 6 MB (V8 would grow it to
 * 48) still frees them before they are promoted, and keeps the writer's heap smaller than V8's
 * own sizing does at the same throughput; a smaller one promotes rows, and the old space grows instead.
 * The old generation's limit also sets how far V8 lets garbage pile up before a full collection
 * (up to 4x the live heap with the default limit of several GB, about 1.4x at 512 MB), so a capped
 * limit keeps the writer's heap from creeping up under a steady load. 512 MB is far above what the
 * writer holds, even with seconds of writes queued behind a slow disk (BENCHMARKS.md has the figures).
 */
const WRITER_HEAP = { maxYoungGenerationSizeMb: 6, maxOldGenerationSizeMb: 512 };

/**
 * A writer thread that died (its heap limit, a native crash) is replaced at once; one that dies
 * again soon after waits this long, doubling up to the cap, so a write that kills every writer
 * it reaches cannot spin the process. Never given up: a live process without a writer would
 * answer 503 to every notification until someone restarted it.
 */
const RESTART_DELAY = { baseMs: 100, maxMs: 5_000 };
/** A writer that lived this long before dying starts the delays over. */
const STABLE_AFTER_MS = 30_000;

export interface WriterHealth {
  /** Why writes are refused for good (the file was deleted or replaced), else null. */
  replaced: string | null;
  /** The last batch in which nothing could commit, while no later batch committed. */
  lastFailure: { at: number; error: string } | null;
}

/**
 * The main thread's side of the writer worker, which also hands other threads (the gateway's
 * listener) ports of their own to it: each thread's writes go straight to the writer, never
 * through another thread's event loop. The batching is the WriteChannel's.
 */
export class WriterClient {
  readonly health: WriterHealth = { replaced: null, lastFailure: null };
  private worker: Worker;
  private readonly channel = new WriteChannel('sqlite writer starting');
  /** Why writes are refused until a new writer thread is up (or for good, once closing or the file is gone). */
  private dead: string | null = null;
  private closing = false;
  private exited: Promise<void>;
  private startedAt = 0;
  private quickDeaths = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  /** Other threads' receivers of a port to the writer: each gets a new one whenever a writer starts. */
  private readonly clients: Array<(port: MessagePort) => void> = [];

  constructor(
    private readonly setup: WriterSetup,
    private readonly events: {
      onOutboxChanged: () => void;
      onCommit: () => void;
      onCheckpointed: () => void;
      onReplaced: (reason: string) => void;
      onWriterDied: (reason: string) => void;
      /** A new writer thread replaced one that died; writes are taken again. */
      onWriterRestarted: (reason: string) => void;
    },
  ) {
    [this.worker, this.exited] = this.start();
  }

  private start(): [Worker, Promise<void>] {
    const worker = startWorker('writer-worker', this.setup, WRITER_HEAP);
    this.startedAt = Date.now();
    this.channel.open(worker);
    let failure: string | null = null;
    worker.on('message', (message: FromWriter) => this.receive(message));
    worker.on('error', (error) => {
      failure = `sqlite writer failed: ${error.message}`;
    });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    void exited.then(() => {
      if (this.worker === worker) this.lost(failure ?? 'sqlite writer stopped');
    });
    for (const client of this.clients) this.connect(worker, client);
    return [worker, exited];
  }

  /**
   * Gives `onPort` a port to the writer now, and a new one after each restart of the writer (the
   * old port closes with the thread that held its other end). Its writes are batched and
   * committed with this thread's; every commit is still reported here (relay, checkpoints, health).
   */
  attachClient(onPort: (port: MessagePort) => void): void {
    this.clients.push(onPort);
    if (!this.dead && !this.closing) this.connect(this.worker, onPort);
  }

  private connect(worker: Worker, onPort: (port: MessagePort) => void): void {
    const { port1, port2 } = new MessageChannel();
    worker.postMessage({ type: 'client', port: port1 } satisfies ToWriter, [port1]);
    onPort(port2);
  }

  /** See WriteChannel.write. */
  write(name: WriteName, args: unknown[]): Promise<unknown> {
    return this.channel.write(name, args);
  }

  /** Asks the writer for a checkpoint between two batches. */
  checkpoint(): void {
    if (!this.dead) this.worker.postMessage({ type: 'checkpoint' } satisfies ToWriter);
  }

  /** Lets queued writes commit (they may be acks in flight), then stops the worker. */
  async close(): Promise<void> {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    if (!this.dead) {
      this.channel.post();
      this.worker.postMessage({ type: 'close' } satisfies ToWriter);
    }
    this.closing = true;
    await this.exited;
  }

  private receive(message: FromWriter): void {
    if (message.type === 'checkpointed') {
      this.events.onCheckpointed();
      return;
    }
    if (message.type === 'fatal') {
      this.die(`sqlite writer could not open the database: ${message.error}`);
      return;
    }
    if (message.type === 'replaced') {
      this.replaced(message.replaced);
      return;
    }
    if (message.replaced) this.replaced(message.replaced);
    if (message.committed === true) this.health.lastFailure = null;
    else if (message.committed === false) this.health.lastFailure = { at: Date.now(), error: message.error ?? 'commit failed' };
    this.channel.settle(message.replies);
    if (message.outboxChanged) this.events.onOutboxChanged();
    if (message.committed !== false) this.events.onCommit();
  }

  private replaced(reason: string): void {
    if (this.health.replaced) return;
    this.health.replaced = reason;
    this.events.onReplaced(reason);
  }

  /**
   * The writer thread is gone. Its writes in flight fail (503: the gateway resends them; one that
   * had committed is a duplicate then, answered 0000). Unless the store is closing or its file is
   * gone for good, a new writer thread opens the database again: SQLite rolled back whatever the
   * dead one had not committed, and every ack it answered was committed before.
   */
  private lost(reason: string): void {
    this.die(reason);
    if (this.closing || this.health.replaced) return;
    this.quickDeaths = Date.now() - this.startedAt < STABLE_AFTER_MS ? this.quickDeaths + 1 : 1;
    const delay = this.quickDeaths <= 1 ? 0 : Math.min(RESTART_DELAY.maxMs, RESTART_DELAY.baseMs * 2 ** (this.quickDeaths - 2));
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.closing) return;
      this.dead = null;
      [this.worker, this.exited] = this.start();
      this.events.onWriterRestarted(reason);
    }, delay);
  }

  private die(reason: string): void {
    if (this.dead) return;
    this.dead = reason;
    this.channel.refuse(reason);
    if (!this.closing) this.events.onWriterDied(reason);
  }
}
