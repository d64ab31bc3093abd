import type { Worker } from 'node:worker_threads';
import type { WriteName } from '../procedures';
import { StoreUnavailable } from '../store';
import { startWorker } from './start-worker';
import type { FromWriter, ToWriter, WriterSetup } from './writer-protocol';

export interface WriterHealth {
  /** Why writes are refused for good (the file was deleted or replaced), else null. */
  replaced: string | null;
  /** The last batch in which nothing could commit, while no later batch committed. */
  lastFailure: { at: number; error: string } | null;
}

/**
 * The main thread's side of the writer worker: posts each write at once (no waiting for the
 * previous commit, so the worker can batch whatever piles up) and settles its promise when the
 * worker replies after COMMIT.
 */
export class WriterClient {
  readonly health: WriterHealth = { replaced: null, lastFailure: null };
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private dead: string | null = null;
  private closing = false;
  private readonly exited: Promise<void>;

  constructor(
    setup: WriterSetup,
    private readonly events: {
      onOutboxChanged: () => void;
      onCommit: () => void;
      onCheckpointed: () => void;
      onReplaced: (reason: string) => void;
      onWriterDied: (reason: string) => void;
    },
  ) {
    this.worker = startWorker('writer-worker', setup);
    this.worker.on('message', (message: FromWriter) => this.receive(message));
    this.worker.on('error', (error) => this.die(`sqlite writer failed: ${error.message}`));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    void this.exited.then(() => this.die('sqlite writer stopped'));
  }

  write(name: WriteName, args: unknown[]): Promise<unknown> {
    if (this.dead) return Promise.reject(new StoreUnavailable(this.dead));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const { args: sendable, transfer } = forTransfer(args);
      this.worker.postMessage({ type: 'write', id, name, args: sendable } satisfies ToWriter, transfer);
    });
  }

  /** Asks the writer for a checkpoint between two batches. */
  checkpoint(): void {
    if (!this.dead) this.worker.postMessage({ type: 'checkpoint' } satisfies ToWriter);
  }

  /** Lets queued writes commit (they may be acks in flight), then stops the worker. */
  async close(): Promise<void> {
    if (!this.dead) this.worker.postMessage({ type: 'close' } satisfies ToWriter);
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
    if (message.replaced && !this.health.replaced) {
      this.health.replaced = message.replaced;
      this.events.onReplaced(message.replaced);
    }
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

  private die(reason: string): void {
    if (this.dead) return;
    this.dead = reason;
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
 * whole; an exact copy of its bytes is moved instead (transferred, not cloned). The caller's
 * Buffer stays intact. Looks one level into plain objects, where entries keep their raw bodies.
 */
function forTransfer(args: unknown[]): { args: unknown[]; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const exact = (value: unknown): unknown => {
    if (!(value instanceof Uint8Array)) return value;
    const copy = new Uint8Array(value);
    transfer.push(copy.buffer);
    return copy;
  };
  const sendable = args.map((arg) => {
    if (arg instanceof Uint8Array) return exact(arg);
    if (arg === null || typeof arg !== 'object' || Array.isArray(arg)) return arg;
    let copied: Record<string, unknown> | null = null;
    for (const [key, value] of Object.entries(arg)) {
      if (value instanceof Uint8Array) (copied ??= { ...arg })[key] = exact(value);
    }
    return copied ?? arg;
  });
  return { args: sendable, transfer };
}
