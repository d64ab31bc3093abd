/**
 * A read of an order found the ledger's projector behind the inputs stored before the read began,
 * and it did not catch up within the wait: answered 503 with `Retry-After`, never a
 * record that misses an input the caller may already know of.
 */
export class LedgerCatchingUp extends Error {
  readonly retryAfterSeconds = 1;
  constructor(
    readonly behind: number,
    waitedMs: number,
  ) {
    super(`the ledger is catching up: ${behind} stored input(s) not applied yet after ${waitedMs} ms; ask again`);
    this.name = 'LedgerCatchingUp';
  }
}
