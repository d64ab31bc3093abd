import { emptyCheckpoint } from '../../src/ledger/fold/discrepancy-lifecycle';
import { keep, takeKept } from '../../src/ledger/sql/kept-checkpoints';

/**
 * The compute thread keeps the checkpoints it wrote, with their text, and goes on from one only
 * while the store holds that very text (kept-checkpoints.ts). The store-level contract
 * (ledger-fold-checkpoint.test.ts) shows a checkpoint replaced in the store is read from the store.
 */
describe('kept checkpoints', () => {
  const order = { mallId: 'T0001234', shopOrderNo: 'ORD-KEPT' };

  it('gives the kept checkpoint for the text it was kept with, once: the fold changes it in place', () => {
    const checkpoint = emptyCheckpoint();
    keep(order, '{"v":1,"a":1}', checkpoint);
    expect(takeKept(order, '{"v":1,"a":1}')).toBe(checkpoint);
    expect(takeKept(order, '{"v":1,"a":1}')).toBeNull();
  });

  it('gives nothing when the store holds another text (another replica\'s write, a rolled-back batch, a rebuild), and forgets it', () => {
    keep(order, '{"v":1,"a":1}', emptyCheckpoint());
    expect(takeKept(order, '{"v":1,"a":2}')).toBeNull();
    expect(takeKept(order, '{"v":1,"a":1}')).toBeNull();
    expect(takeKept({ ...order, shopOrderNo: 'ORD-OTHER' }, '{"v":1,"a":1}')).toBeNull();
  });

  it('keeps the latest write of an order, and forgets the least recently written past its bound of 32 MB of text', () => {
    const first = emptyCheckpoint();
    keep(order, 'old', emptyCheckpoint());
    keep(order, 'new', first);
    expect(takeKept(order, 'old')).toBeNull();
    keep(order, 'new', first);
    expect(takeKept(order, 'new')).toBe(first);
    const big = 'x'.repeat(7 * 1024 * 1024);
    const orders = Array.from({ length: 5 }, (_, i) => ({ ...order, shopOrderNo: `ORD-BIG-${i}` }));
    for (const o of orders) keep(o, big, emptyCheckpoint());
    expect(takeKept(orders[0]!, big)).toBeNull();
    for (const o of orders.slice(1)) expect(takeKept(o, big)).not.toBeNull();
  });
});
