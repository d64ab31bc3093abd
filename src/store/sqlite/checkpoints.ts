import type { Worker } from 'node:worker_threads';
import { startWorker, stopWorker } from './start-worker';

export interface CheckpointOptions {
  /** At most one background checkpoint per interval, and only after commits. */
  intervalMs: number;
  /** A WAL still this many frames long after a background checkpoint is not being rewound. */
  restartAfterFrames: number;
  /**
   * Background passes run back to back before the writer is asked to finish: each copies only
   * what was committed during the one before, so the writer's own pass (which acks wait for) is
   * left with the frames of one short pass instead of everything since the last one.
   */
  passesBeforeWriter: number;
}

/**
 * WAL checkpoints off the commit path. The writer has wal_autocheckpoint=0; a checkpointer
 * thread with its own connection copies the WAL into the database file with PASSIVE checkpoints,
 * which never wait for the writer or readers. Under continuous writes, though, new frames land
 * during every background checkpoint, so it never covers the whole WAL and SQLite never rewinds
 * it: the WAL would grow without bound. When a checkpoint reports a long WAL, a few more passes
 * run back to back, each shorter than the last, and then the writer is asked to finish the job
 * between two batches (a PASSIVE checkpoint of the few frames left, quick); its next transaction
 * then starts the WAL from the beginning.
 */
export class Checkpoints {
  private worker: Worker | null = null;
  private inFlight = false;
  /** The writer was asked to finish a checkpoint: the checkpointer keeps out of its way until it did. */
  private writerTurn = false;
  private last = 0;
  /** Background passes run back to back so far, while the WAL is long. */
  private chained = 0;

  constructor(
    private readonly path: string,
    private readonly askWriter: () => void,
    private readonly options: CheckpointOptions,
  ) {}

  afterCommit(): void {
    if (this.inFlight || this.writerTurn || Date.now() - this.last < this.options.intervalMs) return;
    this.inFlight = true;
    this.worker ??= this.start();
    this.worker.postMessage('checkpoint');
  }

  /** The writer finished its checkpoint; its next transaction rewinds the WAL. */
  writerCheckpointed(): void {
    this.writerTurn = false;
    this.last = Date.now();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    await stopWorker(worker);
  }

  private start(): Worker {
    const worker = startWorker('checkpoint-worker', { path: this.path });
    worker.on('message', (result: { log: number; checkpointed: number } | null) => {
      const long = result !== null && result.log >= this.options.restartAfterFrames;
      if (long && this.chained + 1 < this.options.passesBeforeWriter) {
        this.chained += 1;
        worker.postMessage('checkpoint');
        return;
      }
      this.chained = 0;
      this.inFlight = false;
      this.last = Date.now();
      if (long) {
        // A background checkpoint running at the same time would make the writer's one return
        // "busy" or keep the WAL from being rewound.
        this.writerTurn = true;
        this.askWriter();
      }
    });
    worker.on('error', () => {
      // Without checkpoints the WAL only grows; the next commit starts a new checkpointer.
      this.inFlight = false;
      this.worker = null;
    });
    // Never keeps the process alive on its own.
    worker.unref();
    return worker;
  }
}
