/**
 * The SQLite writer's queue of writes, in the order its transactions commit them: every ack
 * waiting, together (group commit), before any of the ledger's writes (a projector batch, a sweep,
 * a rebuild page, an import's page), and those one per transaction, in the order asked. The writer
 * turns its event loop between two transactions, so the acks that arrive while a ledger write
 * commits go before the next one: an ack waits behind one ledger write at most, never behind all
 * that were queued together.
 */
export class WriteQueue<W extends { name: string }, O> {
  private acks: Array<{ write: W; origin: O }> = [];
  private readonly ledger: Array<{ write: W; origin: O }> = [];

  constructor(private readonly isLedgerWrite: (name: string) => boolean) {}

  take(writes: readonly W[], origin: O): void {
    for (const write of writes) (this.isLedgerWrite(write.name) ? this.ledger : this.acks).push({ write, origin });
  }

  /** Every ack taken so far, for one transaction; empty when none waits. */
  takeAcks(): Array<{ write: W; origin: O }> {
    const acks = this.acks;
    this.acks = [];
    return acks;
  }

  /** The oldest ledger write, alone in its transaction; undefined when none waits. */
  takeLedgerWrite(): { write: W; origin: O } | undefined {
    return this.ledger.shift();
  }

  get waiting(): number {
    return this.acks.length + this.ledger.length;
  }
}
