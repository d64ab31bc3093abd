import { parentPort, workerData } from 'node:worker_threads';
import { openConnection } from './open-connection';

/**
 * PASSIVE checkpoints on a connection of their own, on their own thread: copying WAL pages into
 * the database file and fsyncing it never delays a COMMIT nor the event loop. PASSIVE never waits
 * for the writer or readers; what it cannot copy now is copied next time. See checkpoints.ts.
 */
const { path } = workerData as { path: string };
const port = parentPort!;
let db: ReturnType<typeof openConnection> | null = null;

port.on('message', (message: 'checkpoint' | 'close') => {
  if (message === 'close') {
    db?.close();
    port.close();
    return;
  }
  try {
    db ??= openConnection(path, { busyTimeoutMs: 0 });
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
    port.postMessage(result ? { log: result.log, checkpointed: result.checkpointed } : null);
  } catch {
    // A busy or failing checkpoint only leaves the WAL longer; the next request retries.
    port.postMessage(null);
  }
});
