import type { WriteName } from '../procedures';
import { StoreUnavailable } from '../store';
import type { ToWriter, WriteMessage, WriteReply } from './writer-protocol';

/** Where a turn's writes are posted: the writer worker itself, or a port of it held by another thread. */
export interface WriteTarget {
  postMessage(message: ToWriter, transfer: ArrayBuffer[]): void;
}

/**
 * One thread's writes to the SQLite writer. Writes are not held back for the previous commit (the
 * writer batches whatever piles up while one is on disk); those asked for during one turn of the
 * event loop go as one message, since each message costs this thread a structured clone pass and
 * a wake-up of the writer. Each write's promise settles when the writer replies after its COMMIT.
 * While refused (no writer, or one that cannot take writes), writes fail at once: the gateway's
 * resend comes back to a writer that takes it.
 */
export class WriteChannel {
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private target: WriteTarget | null = null;
  private refused: string;
  /** Asked for during this turn and not yet posted, with the buffers their message transfers. */
  private outgoing: WriteMessage[] = [];
  private transfer: ArrayBuffer[] = [];
  private postScheduled = false;
  private idleWaiters: Array<() => void> = [];

  constructor(refusal: string) {
    this.refused = refusal;
  }

  /** Writes go to `target` from now on. */
  open(target: WriteTarget): void {
    this.target = target;
    this.refused = '';
  }

  /** Writes in flight and from now on fail with `reason`, until `open` is called again. */
  refuse(reason: string): void {
    this.target = null;
    this.refused = reason;
    this.outgoing = [];
    this.transfer = [];
    for (const waiter of this.pending.values()) waiter.reject(new StoreUnavailable(reason));
    this.pending.clear();
    this.wakeIdle();
  }

  /**
   * The arguments are cloned when the turn's writes are posted, not now (raw bytes excepted: they
   * are copied at once): a caller must not change them afterwards, as PostgreSQL's group commit,
   * which runs a write later, already requires.
   */
  write(name: WriteName, args: unknown[]): Promise<unknown> {
    if (this.refused) return Promise.reject(new StoreUnavailable(this.refused));
    const id = this.nextId++;
    const settled = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.outgoing.push({ id, name, args: forTransfer(args, this.transfer) });
    if (!this.postScheduled) {
      this.postScheduled = true;
      // setImmediate, not a microtask: microtasks run after each socket's callback, so each
      // request's write would leave alone; the check phase follows every callback of the poll.
      setImmediate(this.post);
    }
    return settled;
  }

  /** Posts this turn's writes now (before a close, which must come after them). */
  readonly post = (): void => {
    this.postScheduled = false;
    if (this.outgoing.length === 0 || !this.target) return;
    const writes = this.outgoing;
    const transfer = this.transfer;
    this.outgoing = [];
    this.transfer = [];
    this.target.postMessage({ type: 'writes', writes }, transfer);
  };

  /** The writer's replies to some of this channel's writes. */
  settle(replies: readonly WriteReply[]): void {
    for (const reply of replies) {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.ok) waiter?.resolve(reply.value);
      else waiter?.reject(new StoreUnavailable(`sqlite write failed: ${reply.error}`));
    }
    if (this.pending.size === 0) this.wakeIdle();
  }

  /** Resolves once no write asked for so far waits for its reply. */
  idle(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
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
