import type { FoldCheckpoint } from '../fold/discrepancy-lifecycle';
import type { OrderKey } from '../fold/ledger-facts';
import { orderKeyText } from '../fold/order-key';

/** The texts' size the cache holds at most by default (the objects take a few times more). */
const DEFAULT_MAX_TEXT_BYTES = 32 * 1024 * 1024;

interface Kept {
  json: string;
  checkpoint: FoldCheckpoint;
}

/**
 * The fold checkpoints a projector last wrote, kept in memory with the exact text it wrote, so
 * that an order's next batch goes on from the checkpoint as it is (its state and its reading,
 * `Reading` in discrepancy-lifecycle.ts) instead of parsing the text, folding its facts back into a
 * state and reading that state whole.
 *
 * Owned by the thread that computes the projector's batches, and handed to each batch; a thread
 * without one (the writer's sweep and rebuild) reads the stored text. Used only when the store
 * still holds that very text: another replica's projector, a rebuild, a batch whose write rolled
 * back or a checkpoint forgotten all leave another text (or none), and the stored one is read. The
 * text is the checkpoint's whole content, so equal texts are equal checkpoints. A kept checkpoint
 * is taken out while a batch uses it (the fold changes it in place) and kept again with the text
 * of the write that stores it. Bounded by the texts' size; the least recently written go first.
 */
export class FoldCache {
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;

  constructor(private readonly maxTextBytes = DEFAULT_MAX_TEXT_BYTES) {}

  /** The texts' size held now. */
  get textBytes(): number {
    return this.bytes;
  }

  /** The kept checkpoint of the order, when the store holds the text it was kept with; it is no longer kept. */
  take(order: OrderKey, storedJson: string): FoldCheckpoint | null {
    const key = orderKeyText(order);
    const entry = this.kept.get(key);
    if (entry === undefined) return null;
    this.forget(key, entry);
    return entry.json === storedJson ? entry.checkpoint : null;
  }

  /** Keeps the checkpoint with the text about to be stored for it. */
  keep(order: OrderKey, json: string, checkpoint: FoldCheckpoint): void {
    const key = orderKeyText(order);
    const current = this.kept.get(key);
    if (current !== undefined) this.forget(key, current);
    if (json.length > this.maxTextBytes / 4) return;
    this.kept.set(key, { json, checkpoint });
    this.bytes += json.length;
    for (const [oldest, entry] of this.kept) {
      if (this.bytes <= this.maxTextBytes) break;
      this.forget(oldest, entry);
    }
  }

  private forget(key: string, entry: Kept): void {
    this.kept.delete(key);
    this.bytes -= entry.json.length;
  }
}
