import type { FoldCheckpoint } from '../fold/discrepancy-lifecycle';
import type { OrderKey } from '../fold/ledger-facts';
import { orderKeyText } from '../fold/order-key';
import type { OrderRecord } from '../fold/order-record';
import type { StoredItems } from './record-items';

/**
 * How many facts the kept states hold at most, all orders together: an order's state keeps each of
 * its facts as `evolve` folded it, so memory grows with them (the projector's thread has a heap of
 * its own, PROJECTOR_HEAP). One order of more than half of it is not kept: it is replayed.
 */
const DEFAULT_MAX_FACTS = 100_000;

/** The order's record as the write under the token stored it: its header, its items' texts, and the record they compose. */
export interface KeptRecord {
  header: string;
  items: StoredItems;
  record: OrderRecord;
}

interface Kept {
  version: string;
  checkpoint: FoldCheckpoint;
  record: KeptRecord | null;
  facts: number;
}

/** The facts a checkpoint holds (inputs and resolutions): what it weighs in the cache. */
export function factCount({ state, resolutions }: FoldCheckpoint): number {
  return state.expectations.size + state.notifications.size + state.cancellations.size + state.conflicts.size + state.refusals.size
    + state.listings.size + state.settlements.size + resolutions.size;
}

/**
 * The fold states a projector last wrote, kept in memory under the version token stored with each
 * order's position (ledger_fold_positions), so that an order's next batch goes on from its state as
 * it is (its reading too, `Reading` in discrepancy-lifecycle.ts) instead of reading and folding the
 * order's facts again.
 *
 * Owned by the thread that computes the projector's batches, and lent to each batch; a thread
 * without one (the writer's sweep and rebuild) replays from the facts. A kept state is gone on from
 * only while the store holds the very token it was kept under: another replica's projector, the
 * sweep, a rebuild, a batch whose write was thrown away all store another token (each write draws a
 * new one), and the order is replayed once from its facts. A kept state is taken out while a batch
 * uses it (the fold changes it in place) and kept again under the token of the write that stores
 * it. Bounded by the facts the states hold; the least recently written go first.
 */
export class FoldCache {
  private readonly kept = new Map<string, Kept>();
  private facts = 0;

  constructor(private readonly maxFacts = DEFAULT_MAX_FACTS) {}

  /** The facts the kept states hold now. */
  get heldFacts(): number {
    return this.facts;
  }

  /** Whether the order's state is kept under this token (nothing is taken). */
  holds(order: OrderKey, version: string): boolean {
    return this.kept.get(orderKeyText(order))?.version === version;
  }

  /** Whether a state is kept for the order under any token: else its next batch replays it from its facts. */
  keeps(order: OrderKey): boolean {
    return this.kept.has(orderKeyText(order));
  }

  /** The order's kept state, when it is kept under the token the store holds; it is no longer kept. */
  take(order: OrderKey, version: string): FoldCheckpoint | null {
    const key = orderKeyText(order);
    const entry = this.kept.get(key);
    if (entry === undefined) return null;
    this.forget(key, entry);
    return entry.version === version ? entry.checkpoint : null;
  }

  /**
   * The order's record as kept with its state under this token (nothing is taken): a batch compares
   * its record's items with these instead of reading them, and announces its change from it.
   */
  keptRecord(order: OrderKey, version: string): KeptRecord | null {
    const entry = this.kept.get(orderKeyText(order));
    return entry?.version === version ? entry.record : null;
  }

  /**
   * Keeps the order's state under the token about to be stored for it, and with it the record as
   * that write stores it (null when the token's write may store another: the record is then read).
   */
  keep(order: OrderKey, version: string, checkpoint: FoldCheckpoint, record: KeptRecord | null = null): void {
    const key = orderKeyText(order);
    const current = this.kept.get(key);
    if (current !== undefined) this.forget(key, current);
    const facts = factCount(checkpoint);
    if (facts > this.maxFacts / 2) return;
    this.kept.set(key, { version, checkpoint, record, facts });
    this.facts += facts;
    for (const [oldest, entry] of this.kept) {
      if (this.facts <= this.maxFacts) break;
      this.forget(oldest, entry);
    }
  }

  private forget(key: string, entry: Kept): void {
    this.kept.delete(key);
    this.facts -= entry.facts;
  }
}
