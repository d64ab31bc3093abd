/**
 * Sizes the ledger's writes (the projector's batches, a sweep's, rebuild's or import's pages) by
 * time, not rows: each is one transaction on SQLite's only writer, and an ack that arrives while it
 * commits waits for it. After each write the size is scaled toward `targetMs`: shrunk in
 * proportion when a write took longer, grown by half when a full batch's write took less than
 * half of it. Rows cost very different times (a 40 KB notification, an order
 * with thousands of inputs), so a fixed row count could not bound the time.
 */
export class BatchSizer {
  private size: number;

  constructor(
    private readonly max: number,
    private readonly targetMs: number,
    private readonly min = 8,
  ) {
    this.size = max;
  }

  get limit(): number {
    return this.size;
  }

  /** A write of a batch asked for `limit` rows took `ms`; `full`: the batch was full (more waited). */
  wrote(ms: number, full: boolean): void {
    if (ms > this.targetMs) this.size = Math.max(this.min, Math.floor((this.size * this.targetMs) / ms));
    else if (full && ms < this.targetMs / 2) this.size = Math.min(this.max, Math.ceil(this.size * 1.5));
  }
}
