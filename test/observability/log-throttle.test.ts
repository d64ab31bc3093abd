import { logThrottle } from '../../src/observability/log-throttle';

describe('log throttle', () => {
  it('lets the first lines of a window through and reports what it held back when the next window opens', () => {
    const throttle = logThrottle(2, 60_000);
    const first = [0, 1, 2, 3, 4].map((t) => throttle.admit(t));
    expect(first.map((a) => a.log)).toEqual([true, true, false, false, false]);
    expect(first.every((a) => a.suppressedBefore === 0)).toBe(true);
    expect(throttle.admit(60_000)).toEqual({ log: true, suppressedBefore: 3 });
    expect(throttle.admit(120_000)).toEqual({ log: true, suppressedBefore: 0 });
  });
});
