import { parentPort, workerData } from 'node:worker_threads';
import { FoldCache } from '../../ledger/projection/fold-cache';
import { lowerThisThread } from '../../thread-priority';
import { procedureNamed } from '../procedures';
import type { ReadMessage, ReadReply } from '../sqlite/reader-protocol';
import { createPool, inTransaction, type PostgresOptions } from './pool';
import { runProcedure } from './run-procedure';

/**
 * The ledger projector's reads and fold on PostgreSQL, on a thread and a connection of their own:
 * a batch's parse and fold is hundreds of milliseconds of CPU at a steady load, and on the main
 * thread every ack's handler would wait on the event loop for it (BENCHMARKS.md has the figure).
 * Each batch is read in one REPEATABLE READ snapshot, so the inbox's end and the notifications
 * before it are seen as of one moment; only the batch's writes go back to the main thread's pool
 * (applyLedgerBatch). The thread runs below the acks' priority: its fold is never what an ack
 * waits for.
 */
const { url, options } = workerData as { url: string; options: Pick<PostgresOptions, 'connectTimeoutMs' | 'statementTimeoutMs'> };
lowerThisThread();
const port = parentPort!;
const pool = createPool(url, { ...options, maxConnections: 1 });
// The projector's batches go on from the checkpoints it wrote last, kept here between them.
const foldCache = new FoldCache();
const SNAPSHOT = { begin: 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', commit: () => 'COMMIT' };

port.on('message', (message: ReadMessage | 'close') => {
  if (message === 'close') {
    void pool.end().finally(() => port.close());
    return;
  }
  inTransaction(pool, message.name, (client) => runProcedure(client, message.name, procedureNamed(message.name)!(...message.args), { outboxChanged: false, foldCache }), SNAPSHOT).then(
    (value) => port.postMessage({ id: message.id, ok: true, value } satisfies ReadReply),
    (error: unknown) => port.postMessage({ id: message.id, ok: false, error: (error as Error).message } satisfies ReadReply),
  );
});
