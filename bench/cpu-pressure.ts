import { readFileSync } from 'node:fs';

/** A reading of the kernel's CPU pressure (PSI): microseconds in which some task waited for a CPU. */
export interface PressureMark {
  waitedUs: number;
  atUs: number;
}

/** Null where the kernel keeps no pressure figures (not Linux, or PSI off). */
export function cpuPressureMark(): PressureMark | null {
  try {
    const some = /^some .*total=(\d+)/m.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    return some ? { waitedUs: Number(some[1]), atUs: performance.timeOrigin * 1000 + performance.now() * 1000 } : null;
  } catch {
    return null;
  }
}

/**
 * The share of the time between two readings in which at least one runnable task waited for a CPU:
 * where it is high, an ack that waits is waiting for a core, not for its event loop (whose own
 * delay the loop-delay column shows), so two shared cores bound the figure.
 */
export function cpuPressureShare(before: PressureMark | null, after: PressureMark | null): number | null {
  if (!before || !after || after.atUs <= before.atUs) return null;
  return (after.waitedUs - before.waitedUs) / (after.atUs - before.atUs);
}
