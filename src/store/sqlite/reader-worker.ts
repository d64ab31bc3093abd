import { parentPort, workerData } from 'node:worker_threads';
import { FoldCache } from '../../ledger/projection/fold-cache';
import { lowerThisThread } from '../../thread-priority';
import { procedureNamed } from '../procedures';
import { openConnection } from './open-connection';
import type { ReadMessage, ReadReply, ReaderSetup } from './reader-protocol';
import { runProcedure, StatementCache } from './run-procedure';

/**
 * Reads that may walk many rows (an operator's filter, a count over every command), on a
 * read-only connection of their own, off the main thread: there a 1 s search held every ack
 * waiting on the event loop. In WAL mode a read never waits for the writer; the busy timeout only
 * covers the moments SQLite itself needs the WAL index to itself, and here a wait stalls nobody.
 */
const { path, busyTimeoutMs, background } = workerData as ReaderSetup;
if (background) lowerThisThread();
const port = parentPort!;
let reader: StatementCache | null = null;
// The projector's batches go on from the checkpoints it wrote last, kept here between them.
const foldCache = background ? new FoldCache() : undefined;

port.on('message', (message: ReadMessage | 'close') => {
  if (message === 'close') {
    reader?.db.close();
    port.close();
    return;
  }
  let reply: ReadReply;
  try {
    reader ??= new StatementCache(openConnection(path, { busyTimeoutMs, readOnly: true }));
    reply = { id: message.id, ok: true, value: runProcedure(reader, procedureNamed(message.name)!(...message.args), { outboxChanged: false, foldCache }) };
  } catch (error) {
    reply = { id: message.id, ok: false, error: (error as Error).message };
  }
  port.postMessage(reply);
});
