import type { PruneCounts } from '../../store';
import { all, placeholders, run, type Procedure } from '../procedure';

const EMPTY = Buffer.alloc(0);

/**
 * One batch of the retention policy: removes the raw body and the gateway's fields (`data`) of
 * delivered events, rejections and conflicts received before `cutoff`, at most `limit` of each.
 * Dedup keys and body hashes stay, so a late resend is still recognised as a duplicate (or a
 * conflict); undelivered events keep everything because the relay still needs them. A pruned
 * event's delivery attempts keep when and how they ended but lose their error text, which may
 * quote what the queue answered about the event.
 * Batches keep each write short: the writer group-commits acks behind it. Each lookup walks the
 * `*_unpruned` partial index (migration 008) from the oldest expired row, so a batch reads what it
 * prunes and not the months pruned before; ordered by received_at, the order that index keeps.
 * Setting pruned_at moves an inbox row's entry from inbox_unpruned to inbox_pruned.
 */
export function* pruneExpired(cutoff: string, prunedAt: string, limit: number): Procedure<PruneCounts> {
  const events = yield* all<{ seq: number; outbox_seq: number; event_json: string }>(
    `SELECT i.seq, o.seq AS outbox_seq, i.event_json FROM inbox i JOIN outbox o ON o.inbox_seq = i.seq
     WHERE i.pruned_at IS NULL AND i.received_at < ? AND o.status = 'delivered' ORDER BY i.received_at LIMIT ?`,
    cutoff, limit,
  );
  for (const row of events) {
    yield* run('UPDATE inbox SET raw_body = ?, event_json = ?, pruned_at = ? WHERE seq = ?', EMPTY, withoutData(row.event_json), prunedAt, row.seq);
  }
  if (events.length > 0) {
    yield* run(
      `UPDATE delivery_attempts SET error = NULL, pruned_at = ? WHERE pruned_at IS NULL AND outbox_seq IN (${placeholders(events.length)})`,
      prunedAt, ...events.map((row) => row.outbox_seq),
    );
  }
  const conflicts = yield* all<{ id: number; event_json: string }>(
    'SELECT id, event_json FROM conflicts WHERE pruned_at IS NULL AND received_at < ? ORDER BY received_at LIMIT ?',
    cutoff, limit,
  );
  for (const row of conflicts) {
    yield* run('UPDATE conflicts SET raw_body = ?, event_json = ?, pruned_at = ? WHERE id = ?', EMPTY, withoutData(row.event_json), prunedAt, row.id);
  }
  const rejections = yield* run(
    `UPDATE rejections SET raw_body = NULL, pruned_at = ?
     WHERE id IN (SELECT id FROM rejections WHERE pruned_at IS NULL AND received_at < ? ORDER BY received_at LIMIT ?)`,
    prunedAt, cutoff, limit,
  );
  return { events: events.length, rejections: rejections.changes, conflicts: conflicts.length };
}

/** The normalized envelope stays (ids, type, amount, order number); the fields as received go. */
function withoutData(eventJson: string): string {
  const event = JSON.parse(eventJson) as Record<string, unknown>;
  return JSON.stringify({ ...event, data: {} });
}
