import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createStore } from '../create-store';
import type { StoreDriver } from '../driver';
import { loopReads, procedureNamed, type ReadName } from '../procedures';
import { StoreUnavailable, type Store } from '../store';
import type { OnMigration } from '../migrations';
import { fileIdentity } from './file-identity';
import { migrate } from './migrate';
import { openConnection } from './open-connection';
import { holdProcessLock } from './process-lock';
import { runProcedure, StatementCache } from './run-procedure';
import { Checkpoints, type CheckpointOptions } from './checkpoints';
import { PROJECTOR_HEAP, ReaderClient } from './reader-client';
import type { ReaderSetup } from './reader-protocol';
import { WriterClient } from './writer-client';

export interface SqliteOptions {
  /** Serve this file alone: refuse to open while another process serves it (the service sets it; the CLI does not). */
  exclusive?: boolean;
  /** Errors no caller is waiting for (the file deleted under us, the writer thread lost). */
  onBackgroundError?: (error: Error) => void;
  /** How long a failed commit keeps /readyz failing after later probes succeed again. */
  failureMemoryMs?: number;
  checkpoints?: Partial<CheckpointOptions>;
  /** The WAL file is trimmed to this size whenever SQLite rewinds it. */
  walSizeLimitBytes?: number;
  /** Writes are refused (503) while the database's filesystem has less free space than this. */
  minFreeBytes?: number;
  /** Told about each migration just before it is applied at open, e.g. to log a long one. */
  onMigration?: OnMigration;
}

const WRITER_BUSY_TIMEOUT_MS = 1000;
/** The reader thread may wait: nobody else is on it. */
const READER_BUSY_TIMEOUT_MS = 1000;
/**
 * Four background passes in a row before the writer finishes the WAL: the writer's pass, which acks
 * wait for, then copies only what was committed during the last short pass. On a large inbox,
 * whose index pages land all over the file, one background pass leaves the writer most of the
 * copying; four leave it a few milliseconds (BENCHMARKS.md has the figures).
 */
const CHECKPOINTS: CheckpointOptions = { intervalMs: 200, restartAfterFrames: 1000, passesBeforeWriter: 4 };
/**
 * Above the WAL's steady size under saturating load (the frames of the commits between two
 * rewinds), so a rewound WAL is overwritten in place. A limit below that size truncates the
 * WAL at every rewind, and each commit past the limit grows the file again, which makes its fsync
 * commit file metadata too: slower acks and a longer tail (BENCHMARKS.md has the figures).
 */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
/**
 * Writes stop (503, the gateway resends) while less than this is free on the database's disk.
 * The largest notification is a 64 KiB body (MAX_BODY_BYTES) stored raw and again inside its
 * normalized event: about 128 KiB of WAL frames, and as much again when the checkpoint copies
 * those pages into the database file while the WAL still holds them. Four body limits (256 KiB)
 * cover that, so an ack we answer 0000 always fits with the checkpoint after it, and readiness
 * no longer depends on whether a one-row probe happened to fit into reused WAL frames.
 */
const MIN_FREE_BYTES = 4 * 64 * 1024;

export function openSqliteStore(path: string, options: SqliteOptions = {}): Store {
  return createStore(openSqliteDriver(path, options));
}

/**
 * Writes go to a writer on a worker thread (writer-worker.ts) with pipelined group commit. Reads
 * that stay cheap at any size (`loopReads`) run here on a read-only connection, which in WAL mode
 * never waits for the writer; it has no busy timeout: SQLite's busy wait is synchronous and would
 * freeze the event loop, so a busy read fails at once with StoreUnavailable and its caller backs
 * off. Every other read runs on a reader thread (reader-worker.ts): its time grows with the store
 * (an operator's search by dates, the overview's counts), and on the event loop every ack would be
 * held meanwhile (BENCHMARKS.md has the figures).
 */
export function openSqliteDriver(path: string, options: SqliteOptions = {}): StoreDriver {
  const inMemory = path === ':memory:';
  if (inMemory) throw new Error('sqlite::memory: cannot be shared with the writer thread; use a file');
  mkdirSync(dirname(path), { recursive: true });
  const lock = options.exclusive ? holdProcessLock(path) : null;
  let reader: StatementCache;
  try {
    // Migrations run before the writer starts, with a busy wait that only start-up can afford.
    const setupDb = openConnection(path, { busyTimeoutMs: 5000, setJournalMode: true });
    migrate(setupDb, { onMigration: options.onMigration });
    setupDb.close();
    reader = new StatementCache(openConnection(path, { busyTimeoutMs: 0, readOnly: true }));
  } catch (error) {
    lock?.release();
    throw error;
  }
  const identity = fileIdentity(path)!;
  const failureMemoryMs = options.failureMemoryMs ?? 5000;
  const onBackgroundError = options.onBackgroundError ?? (() => undefined);
  const listeners: Array<() => void> = [];

  const checkpoints = new Checkpoints(path, () => writer.checkpoint(), { ...CHECKPOINTS, ...options.checkpoints });
  const writer = new WriterClient(
    {
      path,
      identity,
      busyTimeoutMs: WRITER_BUSY_TIMEOUT_MS,
      walSizeLimitBytes: options.walSizeLimitBytes ?? WAL_SIZE_LIMIT_BYTES,
      minFreeBytes: options.minFreeBytes ?? MIN_FREE_BYTES,
    },
    {
      onOutboxChanged: () => {
        for (const listener of listeners) listener();
      },
      onCommit: () => checkpoints.afterCommit(),
      onCheckpointed: () => checkpoints.writerCheckpointed(),
      onReplaced: (reason) => onBackgroundError(new StoreUnavailable(reason)),
      onWriterDied: (reason) => onBackgroundError(new StoreUnavailable(reason)),
      onWriterRestarted: (reason) => {
        // A checkpoint the dead writer was asked for will never be reported: let the checkpointer go on.
        checkpoints.writerCheckpointed();
        onBackgroundError(new Error(`sqlite writer thread restarted after: ${reason}`));
      },
    },
  );

  // Probes that overlap share one commit, so a crowd of pollers costs one WAL frame. A caller joins
  // only a probe that reaches the writer after it asked: one already on its way may have passed
  // the free-space check before the disk filled, and would answer ready for a disk that is full.
  let probing: Promise<void> | null = null;
  let nextProbe: Promise<void> | null = null;
  const startProbe = (): Promise<void> => {
    const probe: Promise<void> = writer
      .write('probeWrite', [new Date().toISOString()])
      .then(() => undefined)
      .finally(() => {
        if (probing === probe) probing = null;
      });
    probing = probe;
    return probe;
  };
  const freshProbe = (): Promise<void> => {
    if (!probing) return startProbe();
    nextProbe ??= probing
      .catch(() => undefined)
      .then(() => {
        nextProbe = null;
        return startProbe();
      });
    return nextProbe;
  };
  let closed: Promise<void> | null = null;

  const offLoop = new ReaderClient({ path, busyTimeoutMs: READER_BUSY_TIMEOUT_MS });
  // The projector's reads and fold on a thread and a read connection of their own (a WAL snapshot
  // per statement): the writer gets only the batch's writes, and an operator's slow page never
  // delays the projector, nor the projector the operator. Its thread runs below the acks' priority;
  // the other reader's does not, since the internal API's reads wait on it.
  const projectorReader = new ReaderClient({ path, busyTimeoutMs: READER_BUSY_TIMEOUT_MS, background: true } satisfies ReaderSetup, 'reader-worker', PROJECTOR_HEAP);
  const read = async (name: ReadName, args: unknown[]) => {
    if (writer.health.replaced) throw new StoreUnavailable(writer.health.replaced);
    if (!loopReads.has(name)) return offLoop.read(name, args);
    try {
      return runProcedure(reader, procedureNamed(name)!(...args), { outboxChanged: false });
    } catch (error) {
      throw new StoreUnavailable(`sqlite read failed: ${(error as Error).message}`, { cause: error });
    }
  };

  return {
    kind: 'sqlite',
    write: (name, args) => writer.write(name, args),
    read,
    ledgerWrite: (name, args) => writer.write(name, args),
    ledgerRead: (name, args) => {
      if (writer.health.replaced) return Promise.reject(new StoreUnavailable(writer.health.replaced));
      return projectorReader.read(name, args);
    },
    writerPorts: (onPort) => writer.attachClient(onPort),
    holdsRelayLock: async () => true,
    holdsProjectorLock: async () => true,
    async ping() {
      // Ready means an ack could commit now: a real commit through the acks' own writer, and no
      // recent batch in which nothing could commit; the writer refuses both while the disk is
      // nearly full (free-space.ts), so a full disk fails readiness before any ack has failed.
      await freshProbe();
      const failure = writer.health.lastFailure;
      if (failure && Date.now() - failure.at < failureMemoryMs) throw new StoreUnavailable(`last commit failed: ${failure.error}`);
    },
    onNewEvents: (listener) => void listeners.push(listener),
    close() {
      closed ??= (async () => {
        await writer.close();
        await offLoop.close();
        await projectorReader.close();
        await checkpoints.close();
        reader.db.close();
        lock?.release();
      })();
      return closed;
    },
  };
}
