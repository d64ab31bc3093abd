import type { FoldCheckpoint } from '../fold/discrepancy-lifecycle';
import { randomUUID } from 'node:crypto';
import { foldSettingsKey } from '../fold/fold-state';
import type { LedgerFact } from '../fold/ledger-facts';
import { orderKeyText } from '../fold/order-key';
import type { Discrepancy, OrderRecord } from '../fold/order-record';
import { notificationTimes, summaryChange } from '../summary/summary-change';
import type { FoldCache, KeptRecord } from './fold-cache';
import { readFailedInput } from './input-facts';
import { storedRecord, type LedgerOptions, type LoadedOrder, type OrderFact } from './loaded-order';
import type { OrderChanges } from './order-changes';
import { computeLoadedOrder, usableCheckpoint } from './order-computation';
import { itemWrites, recordText, type RecordText } from './record-items';
import { eventPgCno, inInputOrder, inputEvents, type TimedEvent } from './order-events';

/**
 * Each loaded order recomputed with its new facts: the facts to store, the records, their
 * discrepancy rows, the checkpoints, the day's money and the events `ledgerEvents` says the change
 * must send. A fact already stored adds nothing; an order whose record comes out the same writes
 * nothing. `cache` is the projector's fold cache, null where none is kept (the writer's sweep).
 */
export function projectOrders(loaded: ReadonlyMap<string, LoadedOrder>, newFacts: readonly OrderFact[], options: LedgerOptions, cache: FoldCache | null): OrderChanges {
  const changes: OrderChanges = { facts: [], records: [], discrepancies: [], gone: [], checkpoints: [], forgotten: [], summary: [], applied: [], events: [], results: [] };
  const { retried, applied } = retryFailedInputs(loaded);
  changes.applied = applied;
  // Each order's checkpoint read once: it knows the order's facts when they were not read.
  const checkpoints = new Map<string, FoldCheckpoint | null>();
  const known = new Map<string, (id: string) => boolean>();
  for (const [key, entry] of loaded) {
    const checkpoint = usableCheckpoint(entry, options.settings, cache);
    checkpoints.set(key, checkpoint);
    const ids = new Set(entry.facts.map((f) => f.id));
    known.set(key, entry.factsRead || checkpoint === null ? (id) => ids.has(id) : (id) => checkpointHolds(checkpoint, id));
  }
  const added = new Map<string, LedgerFact[]>();
  for (const { order, fact, json } of [...newFacts, ...retried]) {
    const key = orderKeyText(order);
    if (!loaded.has(key)) throw new Error(`the ledger computes an order it has not read: ${key}`);
    const mine = added.get(key) ?? [];
    if (known.get(key)!(fact.id) || mine.some((f) => f.id === fact.id)) continue;
    mine.push(fact);
    added.set(key, mine);
    changes.facts.push({ order, fact, json: json ?? JSON.stringify(fact) });
  }
  const timedEvents: TimedEvent[] = [];
  for (const [key, entry] of loaded) {
    const stored = storedRecord(entry);
    const checkpoint = checkpoints.get(key) ?? null;
    const computed = computeLoadedOrder(entry, checkpoint, added.get(key) ?? [], stored, options);
    const { record, sweepAt, error } = computed;
    const sweepMs = sweepAt === null ? null : Date.parse(sweepAt);
    const text = record === null ? null : recordText(record);
    const json = text?.json ?? null;
    const header = text?.header ?? null;
    const { writes: items, whole } = itemWrites(text, entry.storedJson, entry.storedItems);
    // A record stored whole (before the items table) is compared whole, and written as header and items in any case.
    const changed = (whole ? json !== entry.storedJson : header !== entry.storedJson || items.length > 0) || sweepMs !== entry.sweepAt;
    const factsOf = () => notificationsOf(entry, checkpoint, added.get(key));
    const eventTimes = () => notificationTimes(factsOf());
    changes.results.push({ order: entry.order, record, changed, error, eventTimes, summaryDay: entry.summaryDay });
    // The order's row holds its checkpoint's order_id: a checkpoint is kept only beside a row.
    const hasRow = entry.exists || changed || added.has(key);
    if (computed.checkpoint === 'forget') {
      // A rebuild's read carries no position: whatever the order's row holds goes.
      if (entry.exists) changes.forgotten.push(entry.order);
    } else if (computed.checkpoint !== null && hasRow) {
      // Each write draws a new token: equal tokens are one write, so a state kept under one is the stored one's.
      const version = randomUUID();
      // This write stores the record as `text` says (or, unchanged, holds it so already).
      cache?.keep(entry.order, version, computed.checkpoint, keptRecord(record, text));
      changes.checkpoints.push({ order: entry.order, settings: foldSettingsKey(options.settings), lastMoment: computed.checkpoint.lastMoment, version });
    // Taken and not moved (a sweep, a redelivery): kept again under the token the store still holds.
    // A record written under the same token is not kept: were the write thrown away, the token would name the record it replaced.
    } else if (computed.checkpoint === null && checkpoint !== null) cache?.keep(entry.order, entry.foldPosition!.version, checkpoint, changed || whole ? null : keptRecord(record, text));
    const announce = () => {
      if (record === null || json === null) return;
      inputEvents(stored, computed, record, json, { mallId: record.mallId, pgCno: eventPgCno(record, factsOf) }, timedEvents);
    };
    // A new order's facts need its row (their order_id), whatever the record says.
    if (!changed && (entry.exists || !added.has(key))) {
      if (whole) changes.records.push({ order: entry.order, record, header, items, sweepAt: sweepMs, summaryDay: entry.summaryDay });
      // Inputs that moved the order and moved it back still each told their change.
      if (computed.steps.length > 0) announce();
      continue;
    }
    // The day's money follows every record written (src/ledger/summary/); the order's row keeps the day its status counts from.
    const counted = record === null ? null : summaryChange(entry.order, record, stored, notificationTimes(added.get(key) ?? []), entry.summaryDay);
    if (counted !== null) changes.summary.push(counted);
    changes.records.push({ order: entry.order, record, header, items, sweepAt: sweepMs, summaryDay: counted?.statusDay ?? null });
    // A ledger_error keeps the discrepancy rows as they were: only its status says what happened.
    if (error === null) {
      for (const discrepancy of changedDiscrepancies(stored, record)) changes.discrepancies.push({ order: entry.order, discrepancy });
      changes.gone.push(...vanished(stored, record));
    }
    announce();
  }
  changes.events = inInputOrder(timedEvents);
  return changes;
}

const keptRecord = (record: OrderRecord | null, text: RecordText | null): KeptRecord | null =>
  (record === null || text === null ? null : { header: text.header, items: text.lists, record });

/** Whether the checkpoint holds a fact of this id (an input or a resolution). */
function checkpointHolds(checkpoint: FoldCheckpoint, id: string): boolean {
  const { state } = checkpoint;
  return state.notifications.has(id) || checkpoint.resolutions.has(id) || state.expectations.has(id) || state.cancellations.has(id)
    || state.conflicts.has(id) || state.refusals.has(id) || state.listings.has(id) || state.settlements.has(id);
}

/** The order's facts as far as the filing of its events goes: read, or held by its checkpoint, and the new ones. */
function notificationsOf(entry: LoadedOrder, checkpoint: FoldCheckpoint | null, added: readonly LedgerFact[] = []): LedgerFact[] {
  const held = entry.factsRead || checkpoint === null ? entry.facts : [...checkpoint.state.notifications.values()].map((e) => e.fact);
  return [...held, ...added];
}

/**
 * The orders' kept inputs that now read as facts (a repair corrected them): new facts to apply, and
 * their seqs, whose rows go. One that still fails marks its order `ledger_error` again: the mark
 * stays through the order's later inputs until the input is applied, never cleared by them.
 */
function retryFailedInputs(loaded: ReadonlyMap<string, LoadedOrder>): { retried: OrderFact[]; applied: number[] } {
  const retried: OrderFact[] = [];
  const applied: number[] = [];
  for (const entry of loaded.values()) {
    for (const input of entry.failedInputs) {
      try {
        const made = readFailedInput(input);
        if (made !== null) retried.push({ order: entry.order, ...made });
        applied.push(input.seq);
      } catch (error) {
        entry.loadError ??= `${input.seq > 0 ? `ledger input ${input.seq}` : `stored notification (inbox row ${-input.seq})`} cannot be read (${(error as Error).message}); it is kept, and the order marked, until it is repaired and \`ledger rebuild\` applies it`;
      }
    }
  }
  return { retried, applied };
}

function changedDiscrepancies(stored: OrderRecord | null, record: OrderRecord | null): Discrepancy[] {
  const before = new Map((stored?.discrepancies ?? []).map((d) => [d.id, JSON.stringify(d)]));
  return (record?.discrepancies ?? []).filter((d) => before.get(d.id) !== JSON.stringify(d));
}

/** Discrepancies a record no longer has (the settings changed before a rebuild): their rows go too. */
function vanished(stored: OrderRecord | null, record: OrderRecord | null): string[] {
  const now = new Set((record?.discrepancies ?? []).map((d) => d.id));
  return (stored?.discrepancies ?? []).map((d) => d.id).filter((id) => !now.has(id));
}
