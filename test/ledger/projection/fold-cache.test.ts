import { emptyCheckpoint } from '../../../src/ledger/fold/discrepancy-lifecycle';
import { FoldCache } from '../../../src/ledger/projection/fold-cache';

/**
 * The compute thread keeps the checkpoints it wrote, with their text, and goes on from one only
 * while the store holds that very text (fold-cache.ts). The store-level contract
 * (ledger-fold-checkpoint.test.ts) shows a checkpoint replaced in the store is read from the store.
 */
describe('the fold cache', () => {
  let cache: FoldCache;
  beforeEach(() => {
    cache = new FoldCache();
  });
  const order = { mallId: 'T0001234', shopOrderNo: 'ORD-KEPT' };

  it('gives the kept checkpoint for the text it was kept with, once: the fold changes it in place', () => {
    const checkpoint = emptyCheckpoint();
    cache.keep(order, '{"v":1,"a":1}', checkpoint);
    expect(cache.take(order, '{"v":1,"a":1}')).toBe(checkpoint);
    expect(cache.take(order, '{"v":1,"a":1}')).toBeNull();
  });

  it('gives nothing when the store holds another text (another replica\'s write, a rolled-back batch, a rebuild), and forgets it', () => {
    cache.keep(order, '{"v":1,"a":1}', emptyCheckpoint());
    expect(cache.take(order, '{"v":1,"a":2}')).toBeNull();
    expect(cache.take(order, '{"v":1,"a":1}')).toBeNull();
    expect(cache.take({ ...order, shopOrderNo: 'ORD-OTHER' }, '{"v":1,"a":1}')).toBeNull();
  });

  it('keeps the latest write of an order, and forgets the least recently written past its bound of 32 MB of text', () => {
    const first = emptyCheckpoint();
    cache.keep(order, 'old', emptyCheckpoint());
    cache.keep(order, 'new', first);
    expect(cache.take(order, 'old')).toBeNull();
    cache.keep(order, 'new', first);
    expect(cache.take(order, 'new')).toBe(first);
    const big = 'x'.repeat(7 * 1024 * 1024);
    const orders = Array.from({ length: 5 }, (_, i) => ({ ...order, shopOrderNo: `ORD-BIG-${i}` }));
    for (const o of orders) cache.keep(o, big, emptyCheckpoint());
    expect(cache.take(orders[0]!, big)).toBeNull();
    for (const o of orders.slice(1)) expect(cache.take(o, big)).not.toBeNull();
  });
});

describe('the fold cache of a smaller bound', () => {
  it('holds no more text than its bound, and says how much it holds', () => {
    const cache = new FoldCache(1000);
    const order = (i: number) => ({ mallId: 'T0001234', shopOrderNo: `ORD-${i}` });
    for (let i = 0; i < 10; i += 1) cache.keep(order(i), 'y'.repeat(200), emptyCheckpoint());
    expect(cache.textBytes).toBe(1000);
    expect(cache.take(order(4), 'y'.repeat(200))).toBeNull();
    expect(cache.take(order(9), 'y'.repeat(200))).not.toBeNull();
    expect(cache.textBytes).toBe(800);
    cache.keep(order(11), 'z'.repeat(251), emptyCheckpoint());
    expect(cache.take(order(11), 'z'.repeat(251))).toBeNull();
  });
});
