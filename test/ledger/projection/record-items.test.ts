import fc from 'fast-check';
import { DEFAULT_LEDGER_SETTINGS } from '../../../src/config/ledger-settings';
import { computeOrderRecord } from '../../../src/ledger/fold/compute-order-record';
import type { LedgerFact } from '../../../src/ledger/fold/ledger-facts';
import type { OrderRecord } from '../../../src/ledger/fold/order-record';
import { composeRecord, itemWrites, recordText, withItemWrites, type StoredItems } from '../../../src/ledger/projection/record-items';
import { now, settings, story } from '../ledger-arbitraries';
import { approval, deposit, depositCancel, expectation, minute, ORDER, partialCancel, PG, transferFailed, walletCancellation } from '../ledger-fixtures';
import { compute } from '../ledger-specification';

/** An order's record as the store keeps it: its header and items, from nothing through each write. */
class Stored {
  header: string | null = null;
  items: StoredItems = new Map();

  write(record: OrderRecord | null) {
    const text = record === null ? null : recordText(record);
    const { writes, whole } = itemWrites(text, this.header, this.items);
    this.header = text?.header ?? null;
    this.items = withItemWrites(this.items, writes);
    return { writes, whole };
  }

  read(): OrderRecord | null {
    return this.header === null ? null : composeRecord(this.header, this.items);
  }
}

/** A one-won cancel at minute `i`, stating what is left (`stating: false`: none, so that an order of them out of order shows no mismatch). */
const cancelAt = (i: number, stating = true) =>
  partialCancel({ pgCno: PG.card, cancelPgCno: `2611211200000${String(100000 + i)}`, cancelAmount: 1, ...(stating ? { remainAmount: 1_000_000 - i } : {}), at: i });
const longOrder = (cancels: number): LedgerFact[] => [approval({ pgCno: PG.card, amount: 1_000_000, at: 0 }), ...Array.from({ length: cancels }, (_, i) => cancelAt(i + 1))];
const recordOf = (facts: readonly LedgerFact[]) => computeOrderRecord(ORDER, facts, { now: minute(100_000), settings: DEFAULT_LEDGER_SETTINGS }).record!;

describe("an order's record as header and items", () => {
  it('header and items compose the very JSON the record stringifies to, for every list the record carries', () => {
    const facts = [
      expectation({ amount: 50000, method: 'vaccount' }),
      deposit({ pgCno: PG.vaccount, amount: 20000, at: 1 }),
      approval({ pgCno: PG.card, amount: 30000, at: 2 }),
      partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 1000, remainAmount: 29000, at: 3 }),
      depositCancel({ pgCno: PG.vaccount, amount: 20000, at: 4 }),
      transferFailed({ pgCno: PG.vaccount, amount: 20000, at: 5 }),
      walletCancellation({ shopTransactionId: 'TX-1', pgCno: PG.card, state: 'pending', received: 6 }),
    ];
    const record = recordOf(facts);
    expect(record.refundsFailed).toHaveLength(1);
    expect(record.discrepancies.length).toBeGreaterThan(0);
    const text = recordText(record);
    expect(text.json).toBe(JSON.stringify(record));
    expect(JSON.parse(text.header)).toMatchObject({ payments: 1, cancels: 1, deposits: 1, refundsFailed: 1, cancellationsRequested: 1, events: 5 });
    const stored = new Stored();
    stored.write(record);
    expect(JSON.stringify(stored.read())).toBe(JSON.stringify(record));
  });

  it('one more cancel writes its cancel and its event id, whatever the order\'s length: the same items on an order of 2,000 as of 10', () => {
    for (const k of [10, 2000]) {
      const stored = new Stored();
      stored.write(recordOf(longOrder(k)));
      const next = recordOf([...longOrder(k), cancelAt(k + 1)]);
      const { writes, whole } = stored.write(next);
      expect(whole).toBe(false);
      expect(writes).toEqual([
        { list: 'cancels', from: k, clear: false, items: [JSON.stringify(next.cancels[k])] },
        { list: 'events', from: k + 1, clear: false, items: [next.events[k + 1]].map((id) => JSON.stringify(id)) },
      ]);
      expect(JSON.stringify(stored.read())).toBe(JSON.stringify(next));
    }
  });

  it('a cancel that arrives out of the gateway\'s order rewrites its lists from where it lands, and an unchanged record writes nothing', () => {
    const stored = new Stored();
    const facts = [approval({ pgCno: PG.card, amount: 1_000_000, at: 0 }), ...[1, 2, 3, 5, 6].map((i) => cancelAt(i, false))];
    stored.write(recordOf(facts));
    const next = recordOf([...facts, cancelAt(4, false)]);
    const { writes } = stored.write(next);
    expect(writes.map(({ list, from, clear, items }) => ({ list, from, clear, count: items.length }))).toEqual([
      { list: 'cancels', from: 3, clear: true, count: 3 },
      { list: 'events', from: 4, clear: true, count: 3 },
    ]);
    expect(JSON.stringify(stored.read())).toBe(JSON.stringify(next));
    expect(stored.write(next).writes).toEqual([]);
  });

  it('a record stored whole (before the items table) reads as stored, and is written whole as header and items', () => {
    const record = recordOf(longOrder(3));
    const stored = new Stored();
    stored.header = JSON.stringify(record);
    expect(stored.read()).toEqual(record);
    const { writes, whole } = stored.write(record);
    expect(whole).toBe(true);
    expect(writes.map((w) => [w.list, w.from, w.items.length])).toEqual([['payments', 0, 1], ['cancels', 0, 3], ['events', 0, 4]]);
    expect(JSON.stringify(stored.read())).toBe(JSON.stringify(record));
  });

  it('a header that counts more items than are stored does not read as a shorter record', () => {
    const stored = new Stored();
    stored.write(recordOf(longOrder(3)));
    stored.items = new Map([...stored.items].map(([list, items]) => [list, list === 'cancels' ? items.slice(0, 2) : items]));
    expect(() => stored.read()).toThrow(/cancels has 2 of its 3 items/);
    // The next write does not trust the short list: it writes it whole.
    expect(stored.write(recordOf(longOrder(3))).writes).toEqual([{ list: 'cancels', from: 0, clear: true, items: expect.any(Array) }]);
    expect(stored.read()).toEqual(recordOf(longOrder(3)));
  });

  it('through any arrival order, redeliveries and settings, each record written over the last reads back as its own JSON', () => {
    fc.assert(
      fc.property(story, settings, now, ([, arrival], s, at) => {
        const stored = new Stored();
        for (let i = 1; i <= arrival.length; i += 1) {
          const record = compute(arrival.slice(0, i), { settings: s, now: at }).record;
          stored.write(record);
          expect(JSON.stringify(stored.read())).toBe(JSON.stringify(record));
        }
      }),
      { numRuns: 100 },
    );
  });
});
