import { cpuPressureShare } from '../../bench/cpu-pressure';

describe("the isolation bench's CPU pressure", () => {
  it('is the share of the time between two readings in which some task waited for a CPU', () => {
    expect(cpuPressureShare({ waitedUs: 1_000, atUs: 10_000_000 }, { waitedUs: 251_000, atUs: 11_000_000 })).toBeCloseTo(0.25, 10);
  });

  it('is unknown without both readings, or with no time between them', () => {
    expect(cpuPressureShare(null, { waitedUs: 5, atUs: 5 })).toBeNull();
    expect(cpuPressureShare({ waitedUs: 5, atUs: 5 }, null)).toBeNull();
    expect(cpuPressureShare({ waitedUs: 5, atUs: 5 }, { waitedUs: 9, atUs: 5 })).toBeNull();
  });
});
