import type { MessagePort } from 'node:worker_threads';
import type { WriteRequest } from '../procedures/inbox-outbox/write-batch';

/**
 * What the main thread (and other threads, on ports the main one hands them) and the SQLite
 * writer worker say to each other. Every batch is reported to the main thread, with the replies to
 * its own writes; each other thread gets the replies to its writes.
 */
export interface WriterSetup {
  path: string;
  /** dev:ino of the file the service opened: a different answer later means it was deleted or replaced. */
  identity: string;
  busyTimeoutMs: number;
  /** Caps the WAL file's size each time SQLite rewinds it, so one burst does not keep it large. */
  walSizeLimitBytes: number;
  /** Below this many free bytes on the database's filesystem every write is refused (see free-space.ts). */
  minFreeBytes: number;
}

/** One write procedure to run; the reply carries the same id. */
export interface WriteMessage extends WriteRequest {
  id: number;
}

export type ToWriter =
  /** Every write asked for during one turn of a client's event loop, in the order asked. */
  | { type: 'writes'; writes: WriteMessage[] }
  /** From the main thread: another thread's port; its writes join the batches, its replies go back on it. */
  | { type: 'client'; port: MessagePort }
  /** Checkpoint between two batches, so the next transaction can rewind the WAL (see checkpoints.ts). */
  | { type: 'checkpoint' }
  | { type: 'close' };

export type WriteReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

export type FromWriter =
  | {
      type: 'batch';
      replies: WriteReply[];
      outboxChanged: boolean;
      /** False when no write of the batch committed (the disk or the file is failing); null for probes only. */
      committed: boolean | null;
      /** Set once the path no longer names the open file; from then on every write is refused. */
      replaced: string | null;
      /** The first write's error, when one failed (another thread's write included). */
      error: string | null;
    }
  | { type: 'checkpointed' }
  /** Found between batches: the database file or its WAL no longer is what the path names. */
  | { type: 'replaced'; replaced: string }
  | { type: 'fatal'; error: string };
