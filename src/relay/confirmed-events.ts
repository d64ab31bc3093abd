import type { OutboxRecord } from '../store/store';

/**
 * Outbox rows the queue confirmed and the store has not marked yet, oldest first. Keyed by seq and
 * checked against the event id, so a row is only ever skipped for the event that was confirmed.
 * Bounded: past `limit` the oldest are forgotten and simply published again (at least once).
 */
export class ConfirmedEvents {
  private readonly bySeq = new Map<number, string>();

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.bySeq.size;
  }

  has(row: OutboxRecord): boolean {
    return this.bySeq.get(row.seq) === row.eventId;
  }

  add(row: OutboxRecord): void {
    this.bySeq.delete(row.seq);
    this.bySeq.set(row.seq, row.eventId);
    while (this.bySeq.size > this.limit) this.bySeq.delete(this.bySeq.keys().next().value!);
  }

  delete(row: OutboxRecord): void {
    this.bySeq.delete(row.seq);
  }

  clear(): void {
    this.bySeq.clear();
  }
}
