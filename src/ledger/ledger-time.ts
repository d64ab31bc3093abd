/** A time the ledger cannot place on the timeline: ordering by it would make the record depend on input order. */
export class InvalidLedgerTime extends Error {
  override readonly name = 'InvalidLedgerTime';
  constructor(readonly field: string, readonly value: string) {
    super(`${field}: "${value}" is not an ISO time`);
  }
}

/**
 * Epoch milliseconds of an ISO time. The gateway's times carry +09:00 and the receiver's carry Z,
 * so the ledger compares instants, never the texts.
 */
export function epochMs(field: string, text: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new InvalidLedgerTime(field, text);
  return ms;
}

export const isoOf = (ms: number): string => new Date(ms).toISOString();

/** (time, id): the one order in which the ledger reads its facts; ids break ties so nothing depends on arrival. */
export function byTimeThenId(a: { ms: number; id: string }, b: { ms: number; id: string }): number {
  if (a.ms !== b.ms) return a.ms - b.ms;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
