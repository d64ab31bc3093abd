import type { NormalizedEvent } from '../../notifications/normalized-event';
import type {
  Backlog,
  ConflictRow,
  EventDetail,
  EventRow,
  InboxEntry,
  OutboxRecord,
  RecordResult,
  RejectionRow,
  Store,
} from '../store';
import { withEvent } from '../row-columns';
import { migrate } from './migrate';
import { connectionConfig, createPool, execute, inTransaction, query, type PostgresOptions } from './pool';
import { SQL } from './queries';
import { RelayLock } from './relay-lock';

export type { PostgresOptions } from './pool';

const PING_TIMEOUT_MS = 1000;

/**
 * The store for several replicas on one database. Dedup is the inbox's unique keys, so it holds
 * across processes; the relay runs only where the advisory relay lock is held (relay-lock.ts).
 * Opening applies pending migrations and fails with StoreUnavailable when the database is down.
 */
export async function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<Store> {
  const onBackgroundError = options.onBackgroundError ?? (() => undefined);
  const pool = createPool(url, { ...options, onBackgroundError });
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }

  const listeners: Array<() => void> = [];
  const notifyNewEvents = () => {
    for (const listener of listeners) listener();
  };
  const relayLock = new RelayLock(connectionConfig(url, options), notifyNewEvents, onBackgroundError);

  return {
    kind: 'postgres',

    async record(entry: InboxEntry): Promise<RecordResult> {
      const { event } = entry;
      const result = await inTransaction(pool, 'record', async (client): Promise<RecordResult> => {
        const [inserted] = await query<{ seq: number }>(client, 'record', SQL.insertInbox, [
          event.id, entry.dedupKey, event.notiType, event.type, event.mallId, event.pgCno, event.shopOrderNo,
          entry.bodyHash, entry.rawBody, entry.contentType, event.source.ip, event.receivedAt, JSON.stringify(event),
        ]);
        if (inserted) {
          // Outbox order = commit order. A BIGSERIAL/identity value is drawn at insert but becomes
          // visible at commit, so two replicas could commit seq 6 before seq 5 and the relay would
          // forward 6 first (a cancel before its approval). The transaction-scoped lock makes
          // "draw seq, insert, commit" one step across replicas; it covers only the outbox insert
          // and the commit, so dedup of unrelated keys still runs in parallel. The alternative
          // (reading only below the oldest in-flight transaction) stalls the relay behind any
          // long transaction in the database, including an operator's open psql session.
          await query(client, 'record', SQL.lockOutboxOrder);
          await query(client, 'record', SQL.insertOutbox, [inserted.seq, event.id, event.receivedAt, Date.parse(event.receivedAt)]);
          return { outcome: 'accepted', eventId: event.id };
        }
        // Under READ COMMITTED a racing insert of the same key waited for the winner's commit and
        // did nothing; this statement's fresh snapshot sees the winner's row.
        const [stored] = await query<{ seq: number; event_id: string; body_hash: string }>(client, 'record', SQL.inboxByKey, [entry.dedupKey]);
        if (!stored) throw new Error(`event id ${event.id} is already stored under another dedup key`);
        if (stored.body_hash === entry.bodyHash) {
          await query(client, 'record', SQL.countRedelivery, [event.receivedAt, stored.seq]);
          return { outcome: 'duplicate', eventId: stored.event_id };
        }
        await query(client, 'record', SQL.insertConflict, [
          stored.seq, stored.event_id, entry.dedupKey, event.receivedAt, event.source.ip, entry.contentType,
          entry.rawBody, entry.bodyHash, JSON.stringify(event),
        ]);
        return { outcome: 'conflict', eventId: stored.event_id };
      });
      if (result.outcome === 'accepted') notifyNewEvents();
      return result;
    },

    async recordRejection(entry) {
      const [row] = await query<{ id: number }>(pool, 'recordRejection', SQL.insertRejection, [
        entry.receivedAt, entry.sourceIp, entry.contentType, entry.rawBody, entry.httpStatus, entry.reason,
      ]);
      return row!.id;
    },

    async nextPending(limit): Promise<OutboxRecord[]> {
      const rows = await query<PendingSqlRow>(pool, 'nextPending', SQL.nextPending, [limit]);
      return rows.map(withEvent<PendingSqlRow, NormalizedEvent>);
    },

    markDelivered: async (seq, deliveredAt) => void (await query(pool, 'markDelivered', SQL.markDelivered, [deliveredAt, seq])),
    markRetry: async (seq, error, nextAttemptAt) => void (await query(pool, 'markRetry', SQL.markRetry, [error, nextAttemptAt, seq])),
    markDead: async (seq, error) => void (await query(pool, 'markDead', SQL.markDead, [error, seq])),

    async requeue(eventId) {
      const changed = (await execute(pool, 'requeue', SQL.requeue, [eventId])) > 0;
      if (changed) notifyNewEvents();
      return changed;
    },

    async requeueDead() {
      const count = await execute(pool, 'requeueDead', SQL.requeueDead, []);
      if (count > 0) notifyNewEvents();
      return count;
    },

    async backlog(now): Promise<Backlog> {
      const [row] = await query<{ pending: number; dead: number; oldest: number | null }>(pool, 'backlog', SQL.backlog);
      const { pending, dead, oldest } = row!;
      return { pending, dead, oldestPendingAgeMs: oldest === null ? null : Math.max(0, now - oldest) };
    },

    listEvents: (filter) =>
      query<EventRow>(pool, 'listEvents', SQL.listEvents, [
        filter.status ?? null, filter.type ?? null, filter.shopOrderNo ?? null, filter.since ?? null, filter.limit ?? 100,
      ]),

    async getEvent(eventId): Promise<EventDetail | null> {
      const [row] = await query<Omit<EventDetail, 'event'> & { event_json: string }>(pool, 'getEvent', SQL.getEvent, [eventId]);
      return row ? withEvent<typeof row, NormalizedEvent>(row) : null;
    },

    listRejections: (limit = 100) => query<RejectionRow>(pool, 'listRejections', SQL.listRejections, [limit]),
    getRejection: async (id) => (await query<RejectionRow>(pool, 'getRejection', SQL.getRejection, [id]))[0] ?? null,
    markRejectionReprocessed: async (id, eventId, at) =>
      void (await query(pool, 'markRejectionReprocessed', SQL.markRejectionReprocessed, [at, eventId, id])),

    listConflicts: async (limit = 100) =>
      (await query<ConflictSqlRow>(pool, 'listConflicts', SQL.listConflicts, [limit])).map(withEvent<ConflictSqlRow, NormalizedEvent>),
    getConflict: async (id) => {
      const [row] = await query<ConflictSqlRow>(pool, 'getConflict', SQL.getConflict, [id]);
      return row ? withEvent<ConflictSqlRow, NormalizedEvent>(row) : null;
    },

    holdsRelayLock: () => relayLock.holds(),
    ping: async () => void (await query(pool, 'ping', SQL.ping, [], PING_TIMEOUT_MS)),
    onNewEvents: (listener) => void listeners.push(listener),
    async close() {
      // Releasing the relay lock first lets another replica take over while this one drains its pool.
      await relayLock.close();
      await pool.end();
    },
  };
}

type PendingSqlRow = Omit<OutboxRecord, 'event'> & { event_json: string };
type ConflictSqlRow = Omit<ConflictRow, 'event'> & { event_json: string };
