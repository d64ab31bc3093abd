import type { MessagePort } from 'node:worker_threads';
import { databaseOf } from '../config/database-url';
import { redactUrl } from '../observability/redact-url';
import { ingestWrites, type IngestStore } from './ingest-store';

export interface IngestStoreHandle {
  store: IngestStore;
  /** SQLite: a port to the one writer, from the main thread (again after the writer restarts). */
  attachWriter(port: MessagePort): void;
  /** Lets the writes asked for commit, then lets go of the connection. */
  close(): Promise<void>;
}

/**
 * The store as the gateway listener's thread holds it. SQLite: writes go to the process's one
 * writer thread over a port (the file, its lock and the writer belong to the main thread);
 * PostgreSQL: a pool of its own. pg and the SQLite modules load only when used.
 */
export async function openIngestStore(databaseUrl: string, options: { onBackgroundError: (error: Error) => void }): Promise<IngestStoreHandle> {
  const database = databaseOf(databaseUrl);
  if (!database) throw new Error(`unsupported DATABASE_URL ${redactUrl(databaseUrl)}`);
  if (database.kind === 'sqlite') {
    const writer = new (await import('./sqlite/writer-port')).WriterPort();
    return {
      store: ingestWrites('sqlite', (name, args) => writer.write(name, args)),
      attachWriter: (port) => writer.attach(port),
      close: () => writer.close(),
    };
  }
  // Its group commit runs one transaction at a time: a few connections cover a retry and a reconnect.
  const pool = (await import('./postgres/ingest-pool')).openPostgresIngest(database.location, { ...options, maxConnections: 4 });
  return {
    store: ingestWrites('postgres', pool.write),
    attachWriter: () => undefined,
    close: pool.close,
  };
}
