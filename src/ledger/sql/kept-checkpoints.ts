import type { FoldCheckpoint } from '../fold/discrepancy-lifecycle';
import type { OrderKey } from '../fold/ledger-facts';
import { orderKeyText } from '../fold/order-key';

/**
 * The fold checkpoints this thread last wrote, kept in memory with the exact text it wrote, so
 * that an order's next batch goes on from the checkpoint as it is (its state and its reading,
 * `Reading` in discrepancy-lifecycle.ts) instead of parsing the text, folding its facts back
 * into a state and reading that state whole: for an order of 2,000 inputs that was most of a
 * batch's cost, and its first input could not step.
 *
 * Only used when the store still holds that very text: another replica's projector, a rebuild,
 * a batch whose write rolled back or a checkpoint forgotten all leave another text (or none),
 * and the stored one is read as before. The text is the checkpoint's whole content, so equal
 * texts are equal checkpoints. A kept checkpoint is taken out while a batch uses it (the fold
 * changes it in place) and kept again with the text of the write that stores it.
 *
 * Bounded by the texts' size (the objects take a few times more); the least recently written go first.
 */
const MAX_TEXT_BYTES = 32 * 1024 * 1024;

interface Kept {
  json: string;
  checkpoint: FoldCheckpoint;
}

const kept = new Map<string, Kept>();
let keptBytes = 0;

/** The kept checkpoint of the order, when the store holds the text it was kept with; it is no longer kept. */
export function takeKept(order: OrderKey, storedJson: string): FoldCheckpoint | null {
  const key = orderKeyText(order);
  const entry = kept.get(key);
  if (entry === undefined) return null;
  forget(key, entry);
  return entry.json === storedJson ? entry.checkpoint : null;
}

/** Keeps the checkpoint with the text about to be stored for it. */
export function keep(order: OrderKey, json: string, checkpoint: FoldCheckpoint): void {
  const key = orderKeyText(order);
  const current = kept.get(key);
  if (current !== undefined) forget(key, current);
  if (json.length > MAX_TEXT_BYTES / 4) return;
  kept.set(key, { json, checkpoint });
  keptBytes += json.length;
  for (const [oldest, entry] of kept) {
    if (keptBytes <= MAX_TEXT_BYTES) break;
    forget(oldest, entry);
  }
}

function forget(key: string, entry: Kept): void {
  kept.delete(key);
  keptBytes -= entry.json.length;
}
