import { derivedFromKey } from '../../../notifications/dedup-key';
import type { RecordResult } from '../../store';
import type { InboxRow } from './inbox-row';
import { allRows, changes, chunks, lastTrip, oneTrip, outboxChanged, placeholders, rowInserts, sqlBySize, valueRows, type Param, type Procedure, type Statement } from '../procedure';

const INBOX_COLUMNS = 13;
// One unique key decides: the event id, sha256 of row.dedupKey (eventIdFor), so one dedup key is
// one id; the id holds the pgCno, so one id has one pg_cno. SQLite indexes it as (pg_cno, event_id)
// (migration 007: the gateway's pgCno comes in order, so new rows land at the index's end, not on
// a random page), PostgreSQL as event_id; either way it is the one unique key on the inbox. In
// PostgreSQL a racing copy of the same notification waits on it for the winner's commit, then does
// nothing and is answered as the duplicate it is. No conflict target on purpose: with one naming a
// single index, a race decided on any other unique key fails with a unique violation (a 503) instead.
const INSERT_INBOX = sqlBySize((rows) => `INSERT INTO inbox (event_id, dedup_key, noti_type, event_type, mall_id, pg_cno,
    shop_order_no, body_hash, raw_body, content_type, source_ip, received_at, event_json)
  VALUES ${valueRows(rows, INBOX_COLUMNS)} ON CONFLICT DO NOTHING RETURNING seq, event_id`);
const OUTBOX_COLUMNS = 4;
const INSERT_OUTBOX = sqlBySize((rows) =>
  `INSERT INTO outbox (inbox_seq, event_id, created_at, created_at_ms) VALUES ${valueRows(rows, OUTBOX_COLUMNS)}`);
// With tracing on, the stored span's context too; with it off the insert is the one above, as before tracing.
const TRACED_OUTBOX_COLUMNS = 5;
const INSERT_TRACED_OUTBOX = sqlBySize((rows) =>
  `INSERT INTO outbox (inbox_seq, event_id, created_at, created_at_ms, trace_context) VALUES ${valueRows(rows, TRACED_OUTBOX_COLUMNS)}`);
const CONFLICT_COLUMNS = 9;
const INSERT_CONFLICTS = sqlBySize((rows) => `INSERT INTO conflicts (inbox_seq, event_id, dedup_key, received_at, source_ip,
    content_type, raw_body, body_hash, event_json)
  VALUES ${valueRows(rows, CONFLICT_COLUMNS)}`);
// By both columns of SQLite's unique key, so each is one index search there (and in PostgreSQL's
// event_id index); OR'd pairs rather than a row-value IN, which both planners search alike.
const LOOKUPS_EACH = 256;
const SELECT_STORED = sqlBySize((rows) =>
  `SELECT seq, event_id, dedup_key, body_hash FROM inbox WHERE ${Array.from({ length: rows }, () => '(pg_cno = ? AND event_id = ?)').join(' OR ')}`);
// CAST: PostgreSQL types an untyped parameter in a CASE as text, and `integer + text` does not exist.
const COUNT_REDELIVERIES = sqlBySize((rows) => `UPDATE inbox
  SET redeliveries = redeliveries + CASE seq ${'WHEN ? THEN CAST(? AS INTEGER) '.repeat(rows)}END,
    last_redelivered_at = CASE seq ${'WHEN ? THEN ? '.repeat(rows)}END
  WHERE seq IN (${placeholders(rows)})`);

interface InsertedRow {
  seq: number;
  event_id: string;
}

interface StoredRow {
  seq: number;
  event_id: string;
  dedup_key: string;
  body_hash: string;
}

/**
 * Dedup and store the notifications of one transaction (a group-commit batch, or a single one): a
 * new key writes inbox + outbox, the same body again is a counted duplicate, a different body under
 * the same key is kept as a conflict and not queued. Each entry gets the outcome it would get if the
 * entries were recorded one after another in this order: a second copy of a key in the batch is a
 * duplicate or a conflict of the first. Statements are per batch, not per entry (one multi-row
 * insert for the inbox, one for the outbox, one lookup of the keys), and those that need none of
 * each other's answers travel together: on PostgreSQL every round trip is paid by the acks of the
 * whole batch, and there are two (the inbox insert and the lookup; then the outbox, the
 * redeliveries' counts and the conflicts) where there were five.
 */
export function* recordNotifications(entries: readonly InboxRow[]): Procedure<RecordResult[]> {
  for (const entry of entries) {
    // A caller's bug, never the gateway's input: refused (a 503) rather than stored under a key
    // that would not find its redeliveries.
    if (!derivedFromKey(entry.dedupKey, entry.eventId, entry.pgCno)) {
      throw new Error(`event id ${entry.eventId} or pgCno ${entry.pgCno} is not the one of its dedup key`);
    }
  }
  // Only the first copy of an event id may be new; later copies are redeliveries of what is stored.
  const firstCopy = new Map<string, number>();
  const candidates: InboxRow[] = [];
  entries.forEach((entry, i) => {
    if (firstCopy.has(entry.eventId)) return;
    firstCopy.set(entry.eventId, i);
    candidates.push(entry);
  });
  // Every key is looked up in the insert's round trip, not only those it refused (which are known
  // only once it answered): a lookup costs SQLite microseconds, a round trip costs PostgreSQL more
  // than the whole batch's lookups. The lookup runs after the insert: under READ COMMITTED a racing
  // insert of the same key (another replica) waited for the winner's commit and did nothing, and
  // the lookup's fresh snapshot sees the winner's row (and this transaction's own).
  const inserts = inboxInserts(candidates);
  const lookups = storedLookups(candidates);
  const answers = yield* oneTrip(...inserts, ...lookups);
  const insertedSeqs = new Map<string, number>();
  // RETURNING promises no row order (PostgreSQL, SQLite): rows are matched by event id.
  for (const rows of answers.slice(0, inserts.length) as InsertedRow[][]) for (const row of rows) insertedSeqs.set(row.event_id, row.seq);
  const stored = new Map<string, StoredRow>();
  for (const rows of answers.slice(inserts.length) as StoredRow[][]) for (const row of rows) stored.set(row.event_id, row);

  const accepted = candidates.filter((entry) => insertedSeqs.has(entry.eventId));
  // One statement draws the seqs in entry order, so the batch's outbox order is its arrival order.
  const traced = accepted.some((entry) => entry.traceContext !== null);
  const outboxInserts = traced
    ? rowInserts(INSERT_TRACED_OUTBOX, TRACED_OUTBOX_COLUMNS, accepted.map((entry): Param[] => [
      insertedSeqs.get(entry.eventId)!, entry.eventId, entry.receivedAt, Date.parse(entry.receivedAt), entry.traceContext,
    ]))
    : rowInserts(INSERT_OUTBOX, OUTBOX_COLUMNS, accepted.map((entry): Param[] => [
      insertedSeqs.get(entry.eventId)!, entry.eventId, entry.receivedAt, Date.parse(entry.receivedAt),
    ]));
  const isAccepted = (entry: InboxRow, i: number) => firstCopy.get(entry.eventId) === i && insertedSeqs.has(entry.eventId);

  const results: RecordResult[] = [];
  const duplicates: Array<{ seq: number; at: string }> = [];
  const conflicts: Param[][] = [];
  // Only a traced entry's span asks how many shared its commit; untraced results stay as they were.
  const batchOf = (entry: InboxRow) => (entry.traceContext === null ? {} : { batchSize: entries.length });
  entries.forEach((entry, i) => {
    if (isAccepted(entry, i)) {
      results.push({ outcome: 'accepted', eventId: entry.eventId, ...batchOf(entry) });
      return;
    }
    const row = stored.get(entry.eventId);
    if (!row) throw new Error(`the inbox refused event id ${entry.eventId}, yet holds no row with it`);
    // Two dedup keys with one event id would be a sha256 collision (or a caller's bug): refuse it
    // (a 503 the operator sees) rather than take another notification for a redelivery.
    if (row.dedup_key !== entry.dedupKey) throw new Error(`event id ${entry.eventId} is already stored under another dedup key`);
    if (row.body_hash === entry.bodyHash) {
      duplicates.push({ seq: row.seq, at: entry.receivedAt });
      results.push({ outcome: 'duplicate', eventId: row.event_id, ...batchOf(entry) });
    } else {
      conflicts.push([
        row.seq, row.event_id, entry.dedupKey, entry.receivedAt, entry.sourceIp, entry.contentType,
        entry.rawBody, entry.bodyHash, entry.eventJson,
      ]);
      results.push({ outcome: 'conflict', eventId: row.event_id, ...batchOf(entry) });
    }
  });
  // Outbox order = commit order: see outboxChanged() for why the seq is drawn under a lock. A
  // conflict wakes the ledger's projector too (it is one of its inputs).
  if (accepted.length > 0 || conflicts.length > 0) yield* outboxChanged();
  // Nothing of the ledger: its projector applies these rows once they are committed.
  yield* lastTrip(...outboxInserts, ...redeliveryCounts(duplicates), ...rowInserts(INSERT_CONFLICTS, CONFLICT_COLUMNS, conflicts));
  return results;
}

/** Multi-row inserts of `entries` into the inbox; a key already stored inserts nothing. */
function inboxInserts(entries: readonly InboxRow[]): Statement[] {
  return chunks(entries, INBOX_COLUMNS).map((chunk) => {
    const params: Param[] = [];
    for (const entry of chunk) {
      params.push(
        entry.eventId, entry.dedupKey, entry.notiType, entry.eventType, entry.mallId, entry.pgCno, entry.shopOrderNo,
        entry.bodyHash, entry.rawBody, entry.contentType, entry.sourceIp, entry.receivedAt, entry.eventJson,
      );
    }
    return allRows(INSERT_INBOX(chunk.length), ...params);
  });
}

/** The lookups of the stored rows of these entries' event ids. */
function storedLookups(entries: readonly InboxRow[]): Statement[] {
  return chunks(entries, 2, LOOKUPS_EACH).map((chunk) => allRows(SELECT_STORED(chunk.length), ...chunk.flatMap((entry) => [entry.pgCno, entry.eventId])));
}

/** Counts each stored row's redeliveries; the last copy in entry order sets when it was last redelivered. */
function redeliveryCounts(duplicates: ReadonlyArray<{ seq: number; at: string }>): Statement[] {
  const bySeq = new Map<number, { copies: number; at: string }>();
  for (const { seq, at } of duplicates) bySeq.set(seq, { copies: (bySeq.get(seq)?.copies ?? 0) + 1, at });
  return chunks([...bySeq], 5).map((chunk) => changes(
    COUNT_REDELIVERIES(chunk.length),
    ...chunk.flatMap(([seq, { copies }]) => [seq, copies]),
    ...chunk.flatMap(([seq, { at }]) => [seq, at]),
    ...chunk.map(([seq]) => seq),
  ));
}
