import { DEFAULT_LEDGER_SETTINGS } from '../../../src/config/ledger-settings';
import { replayToCheckpoint } from '../../../src/ledger/fold/compute-order-record';
import { emptyCheckpoint, type FoldCheckpoint } from '../../../src/ledger/fold/discrepancy-lifecycle';
import { FoldCache } from '../../../src/ledger/projection/fold-cache';
import { approval, minute, ORDER, partialCancel, PG } from '../ledger-fixtures';

/**
 * The projector's thread keeps the fold states it wrote, under the token stored with each order's
 * position, and goes on from one only while the store holds that very token (fold-cache.ts). The
 * store-level contract (test/store/ledger-fold-checkpoint.test.ts) shows a position another writer
 * moved is replayed from the facts.
 */
describe('the fold cache', () => {
  let cache: FoldCache;
  beforeEach(() => {
    cache = new FoldCache();
  });

  it('gives the kept state for the token it was kept under, once: the fold changes it in place', () => {
    const checkpoint = emptyCheckpoint();
    cache.keep(ORDER, 'v-1', checkpoint);
    expect(cache.holds(ORDER, 'v-1')).toBe(true);
    expect(cache.take(ORDER, 'v-1')).toBe(checkpoint);
    expect(cache.holds(ORDER, 'v-1')).toBe(false);
    expect(cache.take(ORDER, 'v-1')).toBeNull();
  });

  it("gives nothing when the store holds another token (another replica's write, a thrown-away batch, a rebuild), and forgets it", () => {
    cache.keep(ORDER, 'v-1', emptyCheckpoint());
    expect(cache.holds(ORDER, 'v-2')).toBe(false);
    expect(cache.take(ORDER, 'v-2')).toBeNull();
    expect(cache.take(ORDER, 'v-1')).toBeNull();
    cache.keep(ORDER, 'v-1', emptyCheckpoint());
    expect(cache.take({ ...ORDER, shopOrderNo: 'ORD-OTHER' }, 'v-1')).toBeNull();
  });

  it('says whether it keeps a state of an order under any token, until it is taken', () => {
    expect(cache.keeps(ORDER)).toBe(false);
    cache.keep(ORDER, 'v-1', emptyCheckpoint());
    expect(cache.keeps(ORDER)).toBe(true);
    expect(cache.keeps({ ...ORDER, shopOrderNo: 'ORD-OTHER' })).toBe(false);
    cache.take(ORDER, 'v-2');
    expect(cache.keeps(ORDER)).toBe(false);
  });

  it('gives the record kept with a state only under its token, without taking the state; a state kept without one gives none', () => {
    const record = { header: '{"events":0}', items: new Map(), record: {} as never };
    cache.keep(ORDER, 'v-1', emptyCheckpoint(), record);
    expect(cache.keptRecord(ORDER, 'v-2')).toBeNull();
    expect(cache.keptRecord(ORDER, 'v-1')).toBe(record);
    expect(cache.holds(ORDER, 'v-1')).toBe(true);
    cache.keep(ORDER, 'v-1', cache.take(ORDER, 'v-1')!);
    expect(cache.keptRecord(ORDER, 'v-1')).toBeNull();
  });

  it('keeps the latest write of an order', () => {
    const latest = emptyCheckpoint();
    cache.keep(ORDER, 'v-old', emptyCheckpoint());
    cache.keep(ORDER, 'v-new', latest);
    expect(cache.holds(ORDER, 'v-old')).toBe(false);
    expect(cache.take(ORDER, 'v-new')).toBe(latest);
  });
});

describe('the fold cache is bounded by the facts its states hold', () => {
  /** A state of `n` facts: a payment and n - 1 cancels of 1 won. */
  const stateOf = (n: number): FoldCheckpoint => {
    const facts = [approval({ pgCno: PG.card, amount: 100000, at: 0 }),
      ...Array.from({ length: n - 1 }, (_, i) => partialCancel({ pgCno: PG.card, cancelPgCno: `2611211200000${String(1000 + i).padStart(7, '0')}`, cancelAmount: 1, at: 1 + i }))];
    return replayToCheckpoint(ORDER, facts, { now: minute(n + 1), settings: DEFAULT_LEDGER_SETTINGS }).checkpoint;
  };
  const order = (i: number) => ({ ...ORDER, shopOrderNo: `ORD-${i}` });

  it('forgets the least recently written past its bound, keeps no order of more than half of it, and says what it holds', () => {
    const cache = new FoldCache(100);
    const ten = stateOf(10);
    for (let i = 0; i < 12; i += 1) cache.keep(order(i), `v-${i}`, ten);
    expect(cache.heldFacts).toBe(100);
    expect(cache.holds(order(1), 'v-1')).toBe(false);
    expect(cache.holds(order(2), 'v-2')).toBe(true);
    expect(cache.take(order(11), 'v-11')).toBe(ten);
    expect(cache.heldFacts).toBe(90);
    cache.keep(order(20), 'v-20', stateOf(51));
    expect(cache.holds(order(20), 'v-20')).toBe(false);
    expect(cache.heldFacts).toBe(90);
  });
});
