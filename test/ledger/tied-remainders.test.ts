import { consistentInSomeOrder } from '../../src/ledger/fold/tied-remainders';

const cancel = (amount: number, stated: number | null) => ({ amount, stated });

describe('cancels stamped in the same second: consistent when some order explains their remainders', () => {
  it('one cancel: its stated remainder is what it leaves', () => {
    expect(consistentInSomeOrder(30000, [cancel(10000, 20000)])).toBe(true);
    expect(consistentInSomeOrder(30000, [cancel(10000, 25000)])).toBe(false);
    expect(consistentInSomeOrder(30000, [cancel(10000, null)])).toBe(true);
  });

  it('two or three cancels in any listed order', () => {
    expect(consistentInSomeOrder(30000, [cancel(5000, 15000), cancel(10000, 20000)])).toBe(true);
    expect(consistentInSomeOrder(30000, [cancel(5000, 20000), cancel(10000, 20000)])).toBe(false);
    expect(consistentInSomeOrder(30000, [cancel(1000, 14000), cancel(5000, 15000), cancel(10000, 20000)])).toBe(true);
  });

  it('a cancel without a stated remainder fits wherever the others leave room for it', () => {
    // 30000 -> 5000 (unstated) -> 25000 -> 10000 -> 15000
    expect(consistentInSomeOrder(30000, [cancel(10000, 15000), cancel(5000, null)])).toBe(true);
    // Between the two stated ones: 30000 -> 20000 -> (5000) -> 15000 -> 1000 -> 14000
    expect(consistentInSomeOrder(30000, [cancel(1000, 14000), cancel(10000, 20000), cancel(5000, null)])).toBe(true);
    expect(consistentInSomeOrder(30000, [cancel(10000, 19000), cancel(5000, null)])).toBe(false);
  });

  it('a zero-amount report beside the cancel it repeats fits after it, never before', () => {
    expect(consistentInSomeOrder(30000, [cancel(0, 20000), cancel(10000, 20000)])).toBe(true);
  });

  it('a group larger than the exact search is read by its stated remainders, highest first', () => {
    const many = Array.from({ length: 14 }, (_, i) => cancel(1000, 30000 - 1000 * (i + 1))).reverse();
    expect(consistentInSomeOrder(30000, many)).toBe(true);
    expect(consistentInSomeOrder(30000, [...many.slice(1), cancel(1000, 1)])).toBe(false);
  });
});
