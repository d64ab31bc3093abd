import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { LedgerWriteName } from '../procedures';
import { commitBatch, type WriteOutcome } from './commit-batch';
import { fileIdentity, fileReplaced } from './file-identity';
import { tooLittleSpace } from './free-space';
import { openConnection } from './open-connection';
import { StatementCache } from './run-procedure';
import { WriteQueue } from './write-queue';
import type { FromWriter, ToWriter, WriteMessage, WriteReply, WriterSetup } from './writer-protocol';

/**
 * The SQLite writer, on its own thread so a COMMIT's fsync never stalls the event loop.
 * Pipelined group commit: whatever arrived while the previous commit was on disk becomes the
 * next batch, one transaction and one fsync; each reply leaves only after its COMMIT returned.
 */
const setup = workerData as WriterSetup;
const port = parentPort!;
const send = (message: FromWriter) => port.postMessage(message);

/**
 * How often an idle writer looks whether its files are still there: acks committed just before
 * the WAL was deleted would otherwise wait for the next commit to be saved (see saveDeletedWal).
 */
const FILE_CHECK_INTERVAL_MS = 1000;
/** How long saveDeletedWal keeps trying while another checkpoint or a reader holds the WAL. */
const SAVE_WAL_PATIENCE_MS = 10_000;

const walPath = `${setup.path}-wal`;
/** Every ledger write by name (the compiler asks for a new one here). */
const LEDGER_WRITES: ReadonlySet<string> = new Set(Object.keys({
  projectLedger: true, applyLedgerBatch: true, sweepLedger: true, rebuildLedger: true, backfillLedger: true, closeSummaryDay: true, reopenSummaryDay: true, storeImportPage: true,
} satisfies Record<LedgerWriteName, true>));
let statements: StatementCache;
/** dev:ino of the WAL this connection writes to; null if SQLite did not create one. */
let walIdentity: string | null;
try {
  statements = new StatementCache(openConnection(setup.path, { busyTimeoutMs: setup.busyTimeoutMs }));
  statements.db.pragma(`journal_size_limit = ${setup.walSizeLimitBytes}`);
  // Statement journals (a multi-row statement's undo, kept while a transaction runs several: the
  // ledger's upserts and INSERT ... SELECT need them) and sorts in memory, not in a temp file
  // opened, written and deleted per transaction, which on the ledger's ack path would be a large
  // share of all the writer writes to disk (bench/store-throughput.ts; BENCHMARKS.md). They are
  // as large as the pages one statement of the batch changes, which the batch's size bounds.
  statements.db.pragma('temp_store = MEMORY');
  // The first read opens (creates) the WAL: from then on this connection writes to that file.
  statements.db.prepare('SELECT count(*) FROM sqlite_master').get();
  walIdentity = fileIdentity(walPath);
} catch (error) {
  send({ type: 'fatal', error: (error as Error).message });
  process.exit(1);
}

/** Where a write came from: the main thread, or another thread's port (see `client`). */
type Origin = MessagePort | null;
const queue = new WriteQueue<WriteMessage, Origin>((name) => LEDGER_WRITES.has(name));
/** Other threads' ports, closed with the writer. */
const clients = new Set<MessagePort>();
let scheduled = false;
let closing = false;
let checkpointWanted = false;
let replaced: string | null = null;

const fileCheck = setInterval(() => {
  if (replaced || closing) return;
  replaced = filesReplaced();
  if (replaced) send({ type: 'replaced', replaced });
}, FILE_CHECK_INTERVAL_MS);
// The port keeps the worker alive while it is needed; this timer must not keep it after 'close'.
fileCheck.unref();

/** What went wrong with the database file or its WAL, or null while both are the files opened. */
function filesReplaced(): string | null {
  const database = fileReplaced(setup.path, setup.identity);
  if (database) return database;
  if (walIdentity === null) return null;
  const wal = fileReplaced(walPath, walIdentity, 'database WAL file');
  return wal && `${wal}${saveDeletedWal()}`;
}

/**
 * The WAL was deleted or replaced under us. Committed transactions not yet checkpointed live only
 * in that file, which this connection still has open: copy them into the database file now
 * (TRUNCATE checkpoint, fsync'ed), or a crash or restart would lose acked notifications (4 to 135
 * were lost in trials before this). New commits would land in a file nobody else can see, so
 * every write is refused from here on, like a deleted database file; a restart makes a new WAL.
 *
 * Retried for a while, not a few times in a row: the checkpoint thread's PASSIVE checkpoint holds
 * the checkpoint lock for as long as it copies pages, and meanwhile SQLite answers busy at once
 * (-1 of -1 frames) without calling the busy handler; five back-to-back tries all met it in a CI run.
 */
function saveDeletedWal(): string {
  const deadline = Date.now() + SAVE_WAL_PATIENCE_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let last = '';
  for (;;) {
    try {
      const [result] = statements.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; log: number; checkpointed: number }>;
      if (result && result.busy === 0) return '; every committed write was copied into the database file first';
      last = `checkpoint busy (${result?.checkpointed ?? 0} of ${result?.log ?? '?'} frames copied)`;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() >= deadline) break;
    // This thread only refuses writes from here on; blocking it briefly costs nothing else.
    Atomics.wait(pause, 0, 0, 20);
  }
  return `; copying its committed writes into the database file failed (${last}): keep the process running until an operator copies the database`;
}

port.on('message', (message: ToWriter) => {
  if (message.type === 'close') {
    closing = true;
  } else if (message.type === 'checkpoint') {
    checkpointWanted = true;
  } else if (message.type === 'client') {
    client(message.port);
  } else {
    queue.take(message.writes, null);
  }
  schedule();
});

/** Another thread writes through `client` directly: its writes never wait on the main thread's loop. */
function client(clientPort: MessagePort): void {
  clients.add(clientPort);
  clientPort.on('message', (message: ToWriter) => {
    if (message.type !== 'writes' || closing) return;
    queue.take(message.writes, clientPort);
    schedule();
  });
  clientPort.on('close', () => clients.delete(clientPort));
}

function schedule(): void {
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}

function flush(): void {
  scheduled = false;
  // The acks waiting, then one of the ledger's writes (WriteQueue); the next turn of this loop
  // takes whatever arrived meanwhile (the ports' messages are delivered before the next immediate).
  const acks = queue.takeAcks();
  if (acks.length > 0) reply(commit(acks.map((a) => a.write)), acks.map((a) => a.origin));
  const ledger = queue.takeLedgerWrite();
  if (ledger) reply(commit([ledger.write]), [ledger.origin]);
  if (queue.waiting > 0) schedule();
  // After the batch's replies, not before: the acks already waiting do not wait for the
  // checkpoint too; only writes arriving while it runs do (they become the next batch).
  if (checkpointWanted && !replaced) {
    checkpointWanted = false;
    try {
      statements.db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Only leaves the WAL longer; the checkpointer asks again.
    }
    send({ type: 'checkpointed' });
  }
  if (closing && queue.waiting === 0) {
    clearInterval(fileCheck);
    statements.db.close();
    for (const clientPort of clients) clientPort.close();
    port.close();
  }
}

/**
 * Each reply to the thread that asked; the main thread is told of every batch (its commits wake
 * the relay and the checkpointer, its failures are readiness), with no replies if none are its own.
 */
function reply(result: Extract<FromWriter, { type: 'batch' }>, from: Origin[]): void {
  const byClient = new Map<MessagePort, WriteReply[]>();
  const own: WriteReply[] = [];
  result.replies.forEach((answer, i) => {
    const origin = from[i];
    if (!origin) own.push(answer);
    else if (byClient.has(origin)) byClient.get(origin)!.push(answer);
    else byClient.set(origin, [answer]);
  });
  for (const [clientPort, replies] of byClient) clientPort.postMessage({ ...result, replies } satisfies FromWriter);
  send({ ...result, replies: own });
}

function commit(batch: WriteMessage[]): Extract<FromWriter, { type: 'batch' }> {
  if (replaced) return refuseAll(batch, replaced);
  // Checked before every batch, probes included: a nearly full disk may still take a small
  // commit into WAL frames reused after a checkpoint, so whether one commit succeeded says
  // nothing about the next (a large notification, the checkpoint that must follow it).
  const lowSpace = tooLittleSpace(setup.path, setup.minFreeBytes);
  if (lowSpace) return refuseLowSpace(batch, lowSpace);
  const { outcomes, outboxChanged } = commitBatch(statements, batch);
  // Checked after COMMIT and before any reply: a batch committed into a deleted or replaced file
  // is lost at the next restart, so it must be answered 503 and the gateway will resend it.
  replaced = filesReplaced();
  if (replaced) return refuseAll(batch, replaced);
  const replies: WriteReply[] = outcomes.map((outcome, i) =>
    outcome.ok ? { id: batch[i]!.id, ok: true, value: outcome.value } : { id: batch[i]!.id, ok: false, error: outcome.error },
  );
  return {
    type: 'batch',
    replies,
    error: firstError(outcomes),
    outboxChanged,
    // The readiness probe alone says nothing about whether acks commit (a full disk may take one row).
    committed: batch.some((request) => request.name !== 'probeWrite')
      ? outcomes.some((outcome, i) => outcome.ok && batch[i]!.name !== 'probeWrite')
      : null,
    replaced: null,
  };
}

function firstError(outcomes: readonly WriteOutcome[]): string | null {
  for (const outcome of outcomes) if (!outcome.ok) return outcome.error;
  return null;
}

function refuseLowSpace(batch: WriteMessage[], reason: string): Extract<FromWriter, { type: 'batch' }> {
  const replies: WriteReply[] = batch.map(({ id }) => ({ id, ok: false, error: reason }));
  // A refused probe fails readiness by itself; only refused acks are remembered as failed commits.
  const committed = batch.some((request) => request.name !== 'probeWrite') ? false : null;
  return { type: 'batch', replies, error: reason, outboxChanged: false, committed, replaced: null };
}

function refuseAll(batch: Array<{ id: number }>, reason: string): Extract<FromWriter, { type: 'batch' }> {
  const replies: WriteReply[] = batch.map(({ id }) => ({ id, ok: false, error: reason }));
  return { type: 'batch', replies, error: reason, outboxChanged: false, committed: false, replaced: reason };
}
