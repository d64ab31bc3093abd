import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { NormalizedEvent } from '../../notifications/normalized-event';
import { readMigrations } from '../migrations';
import { withEvent } from '../row-columns';
import {
  StoreUnavailable,
  type Backlog,
  type ConflictRow,
  type EventDetail,
  type EventFilter,
  type EventRow,
  type InboxEntry,
  type OutboxRecord,
  type RecordResult,
  type RejectionEntry,
  type RejectionRow,
  type Store,
} from '../store';
import { GroupCommit } from './group-commit';
import { prepareStatements } from './statements';

export function openSqliteStore(path: string): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // WAL + synchronous=FULL: COMMIT returns only after the WAL is fsync'ed, so an ack is never ahead of the disk.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);

  const sql = prepareStatements(db);
  const commits = new GroupCommit(db);
  const listeners: Array<() => void> = [];
  let addedEvents = false;
  commits.onCommit(() => {
    if (!addedEvents) return;
    addedEvents = false;
    for (const listener of listeners) listener();
  });

  const read = <T>(query: () => T): Promise<T> => {
    try {
      return Promise.resolve(query());
    } catch (error) {
      return Promise.reject(new StoreUnavailable(`sqlite read failed: ${(error as Error).message}`, { cause: error }));
    }
  };

  return {
    kind: 'sqlite',

    record(entry: InboxEntry): Promise<RecordResult> {
      return commits.run(() => {
        const { event } = entry;
        const inserted = sql.insertInbox.get({
          event_id: event.id,
          dedup_key: entry.dedupKey,
          noti_type: event.notiType,
          event_type: event.type,
          mall_id: event.mallId,
          pg_cno: event.pgCno,
          shop_order_no: event.shopOrderNo,
          body_hash: entry.bodyHash,
          raw_body: entry.rawBody,
          content_type: entry.contentType,
          source_ip: event.source.ip,
          received_at: event.receivedAt,
          event_json: JSON.stringify(event),
        }) as { seq: number } | undefined;
        if (inserted) {
          sql.insertOutbox.run({
            inbox_seq: inserted.seq,
            event_id: event.id,
            created_at: event.receivedAt,
            created_at_ms: Date.parse(event.receivedAt),
          });
          addedEvents = true;
          return { outcome: 'accepted', eventId: event.id };
        }
        const stored = sql.inboxByKey.get(entry.dedupKey) as { seq: number; event_id: string; body_hash: string };
        if (stored.body_hash === entry.bodyHash) {
          sql.countRedelivery.run(event.receivedAt, stored.seq);
          return { outcome: 'duplicate', eventId: stored.event_id };
        }
        sql.insertConflict.run({
          inbox_seq: stored.seq,
          event_id: stored.event_id,
          dedup_key: entry.dedupKey,
          received_at: event.receivedAt,
          source_ip: event.source.ip,
          content_type: entry.contentType,
          raw_body: entry.rawBody,
          body_hash: entry.bodyHash,
          event_json: JSON.stringify(event),
        });
        return { outcome: 'conflict', eventId: stored.event_id };
      });
    },

    recordRejection(entry: RejectionEntry): Promise<number> {
      return commits.run(() => {
        const result = sql.insertRejection.run({
          received_at: entry.receivedAt,
          source_ip: entry.sourceIp,
          content_type: entry.contentType,
          raw_body: entry.rawBody,
          http_status: entry.httpStatus,
          reason: entry.reason,
        });
        return Number(result.lastInsertRowid);
      });
    },

    nextPending(limit: number): Promise<OutboxRecord[]> {
      return read(() => (sql.nextPending.all(limit) as PendingSqlRow[]).map(withEvent<PendingSqlRow, NormalizedEvent>));
    },

    markDelivered: (seq, deliveredAt) => commits.run(() => void sql.markDelivered.run(deliveredAt, seq)),
    markRetry: (seq, error, nextAttemptAt) => commits.run(() => void sql.markRetry.run(error, nextAttemptAt, seq)),
    markDead: (seq, error) => commits.run(() => void sql.markDead.run(error, seq)),

    requeue(eventId: string): Promise<boolean> {
      return commits.run(() => {
        const changed = sql.requeue.run(eventId).changes > 0;
        if (changed) addedEvents = true;
        return changed;
      });
    },

    requeueDead(): Promise<number> {
      return commits.run(() => {
        const changes = sql.requeueDead.run().changes;
        if (changes > 0) addedEvents = true;
        return changes;
      });
    },

    backlog(now: number): Promise<Backlog> {
      return read(() => {
        const pending = sql.pendingStats.get() as { pending: number; oldest: number | null };
        const dead = sql.deadCount.get() as { dead: number };
        return {
          pending: pending.pending,
          dead: dead.dead,
          oldestPendingAgeMs: pending.oldest === null ? null : Math.max(0, now - pending.oldest),
        };
      });
    },

    listEvents(filter: EventFilter): Promise<EventRow[]> {
      return read(() => sql.listEvents.all(eventFilterParams(filter)) as EventRow[]);
    },

    getEvent(eventId: string): Promise<EventDetail | null> {
      return read(() => {
        const row = sql.getEvent.get(eventId) as (Omit<EventDetail, 'event'> & { event_json: string }) | undefined;
        return row ? withEvent<typeof row, NormalizedEvent>(row) : null;
      });
    },

    listRejections: (limit = 100) => read(() => sql.listRejections.all(limit) as RejectionRow[]),
    getRejection: (id) =>
      read(() => (sql.getRejection.get(id) as RejectionRow | undefined) ?? null),
    markRejectionReprocessed: (id, eventId, at) =>
      commits.run(() => void sql.markRejectionReprocessed.run(at, eventId, id)),

    listConflicts: (limit = 100) => read(() => (sql.listConflicts.all(limit) as ConflictSqlRow[]).map(withEvent<ConflictSqlRow, NormalizedEvent>)),
    getConflict: (id) =>
      read(() => {
        const row = sql.getConflict.get(id) as ConflictSqlRow | undefined;
        return row ? withEvent<ConflictSqlRow, NormalizedEvent>(row) : null;
      }),

    holdsRelayLock: async () => true,
    ping: () => read(() => void sql.ping.get()),
    onNewEvents: (listener) => void listeners.push(listener),
    close: async () => {
      // Let writes already queued commit first: they may be acks in flight.
      await commits.run(() => undefined).catch(() => undefined);
      if (db.open) db.close();
    },
  };
}

function migrate(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((r) => r.version));
  for (const migration of readMigrations('sqlite')) {
    if (applied.has(migration.version)) continue;
    // IMMEDIATE takes the write lock up front, so a second process starting at once waits instead of racing.
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }).immediate();
  }
}

function eventFilterParams(filter: EventFilter) {
  return {
    status: filter.status ?? null,
    type: filter.type ?? null,
    shop_order_no: filter.shopOrderNo ?? null,
    since: filter.since ?? null,
    limit: filter.limit ?? 100,
  };
}

type PendingSqlRow = Omit<OutboxRecord, 'event'> & { event_json: string };
type ConflictSqlRow = Omit<ConflictRow, 'event'> & { event_json: string };
