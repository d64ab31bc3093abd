import type { Worker } from 'node:worker_threads';
import type { WriteName } from '../procedures';
import { StoreUnavailable } from '../store';
import { startWorker } from './start-worker';
import type { FromWriter, ToWriter, WriteMessage, WriterSetup } from './writer-protocol';

/**
 * A batch's rows live for a commit or two, so a young generation of 6 MB (V8 would grow it to
 * 48) still frees them before they are promoted: measured at 128 connections, the writer's heap
 * 23 -> 14 MB with the same throughput; at 3 MB it promoted rows and its old space grew to 18.
 * The old generation's limit also sets how far V8 lets garbage pile up before a full collection
 * (up to 4x the live heap with the default limit of several GB, about 1.4x at 512 MB): over 80 s
 * at 128 connections the writer's heap grew 14 -> 25 MB with the default, and stayed at 17-19.
 * 512 MB is far above what the writer holds, even with seconds of writes queued behind a slow disk.
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
 * The main thread's side of the writer worker. Writes are not held back for the previous commit
 * (the worker batches whatever piles up while one is on disk); those asked for during one turn of
 * the event loop go as one message, since each message costs the main thread a structured clone
 * pass and a wake-up of the worker. Each write's promise settles when the worker replies after
 * its COMMIT.
 */
export class WriterClient {
  readonly health: WriterHealth = { replaced: null, lastFailure: null };
  private worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  /** Why writes are refused until a new writer thread is up (or for good, once closing or the file is gone). */
  private dead: string | null = null;
  private closing = false;
  private exited: Promise<void>;
  private startedAt = 0;
  private quickDeaths = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  /** Asked for during this turn and not yet posted, with the buffers their message transfers. */
  private outgoing: WriteMessage[] = [];
  private transfer: ArrayBuffer[] = [];
  private postScheduled = false;

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
    let failure: string | null = null;
    worker.on('message', (message: FromWriter) => this.receive(message));
    worker.on('error', (error) => {
      failure = `sqlite writer failed: ${error.message}`;
    });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    void exited.then(() => {
      if (this.worker === worker) this.lost(failure ?? 'sqlite writer stopped');
    });
    return [worker, exited];
  }

  /**
   * The arguments are cloned when the turn's writes are posted, not now (raw bytes excepted: they
   * are copied at once): a caller must not change them afterwards, as PostgreSQL's group commit,
   * which runs a write later, already requires.
   */
  write(name: WriteName, args: unknown[]): Promise<unknown> {
    if (this.dead) return Promise.reject(new StoreUnavailable(this.dead));
    const id = this.nextId++;
    const settled = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.outgoing.push({ id, name, args: forTransfer(args, this.transfer) });
    if (!this.postScheduled) {
      this.postScheduled = true;
      // setImmediate, not a microtask: microtasks run after each socket's callback, so each
      // request's write would leave alone; the check phase follows every callback of the poll.
      setImmediate(this.postWrites);
    }
    return settled;
  }

  private readonly postWrites = (): void => {
    this.postScheduled = false;
    if (this.outgoing.length === 0) return;
    const writes = this.outgoing;
    const transfer = this.transfer;
    this.outgoing = [];
    this.transfer = [];
    this.worker.postMessage({ type: 'writes', writes } satisfies ToWriter, transfer);
  };

  /** Asks the writer for a checkpoint between two batches. */
  checkpoint(): void {
    if (!this.dead) this.worker.postMessage({ type: 'checkpoint' } satisfies ToWriter);
  }

  /** Lets queued writes commit (they may be acks in flight), then stops the worker. */
  async close(): Promise<void> {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    if (!this.dead) {
      this.postWrites();
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
    else if (message.committed === false) this.health.lastFailure = { at: Date.now(), error: firstError(message) };
    for (const reply of message.replies) {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.ok) waiter?.resolve(reply.value);
      else waiter?.reject(new StoreUnavailable(`sqlite write failed: ${reply.error}`));
    }
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
      [this.worker, this.exited] = this.start();
      this.dead = null;
      this.events.onWriterRestarted(reason);
    }, delay);
  }

  private die(reason: string): void {
    if (this.dead) return;
    this.dead = reason;
    this.outgoing = [];
    this.transfer = [];
    for (const waiter of this.pending.values()) waiter.reject(new StoreUnavailable(reason));
    this.pending.clear();
    if (!this.closing) this.events.onWriterDied(reason);
  }
}

function firstError(message: Extract<FromWriter, { type: 'batch' }>): string {
  for (const reply of message.replies) if (!reply.ok) return reply.error;
  return 'commit failed';
}

/**
 * A Buffer is usually a view into a larger pooled ArrayBuffer, which structured clone would copy
 * whole; an exact copy of its bytes is moved instead (its buffer added to `transfer`). The
 * caller's Buffer stays intact. Looks one level into plain objects, where entries keep their raw
 * bodies.
 */
function forTransfer(args: unknown[], transfer: ArrayBuffer[]): unknown[] {
  const exact = (value: unknown): unknown => {
    if (!(value instanceof Uint8Array)) return value;
    const copy = new Uint8Array(value);
    transfer.push(copy.buffer);
    return copy;
  };
  return args.map((arg) => {
    if (arg instanceof Uint8Array) return exact(arg);
    if (arg === null || typeof arg !== 'object' || Array.isArray(arg)) return arg;
    let copied: Record<string, unknown> | null = null;
    for (const [key, value] of Object.entries(arg)) {
      if (value instanceof Uint8Array) (copied ??= { ...arg })[key] = exact(value);
    }
    return copied ?? arg;
  });
}
