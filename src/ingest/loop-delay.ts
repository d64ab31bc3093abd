import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import type { Histogram } from 'prom-client';

/** How often the loop is sampled: the resolution `monitorEventLoopDelay` defaults to. */
const RESOLUTION_MS = 10;
/** /readyz's p99 covers the last one or two of these windows: recent, yet more than a few samples. */
const WINDOW_MS = 60_000;

export interface LoopDelay {
  /** The p99 of the delays of the last one to two minutes, in milliseconds; null before any sample. */
  p99Ms(): number | null;
  stop(): void;
}

/**
 * Measures this thread's event loop the way `perf_hooks.monitorEventLoopDelay` does (a timer every
 * 10 ms, and how late it ran), sampled here so that every delay lands in the Prometheus histogram's
 * buckets as well as in an HDR histogram for the p99. A late timer is a request that waited as long
 * for the loop to read it. The timer is unref'd: it never keeps a thread alive.
 */
export function watchLoopDelay(histogram: Pick<Histogram, 'observe'>): LoopDelay {
  let current: RecordableHistogram = createHistogram();
  let previous: RecordableHistogram = createHistogram();
  let windowStarted = performance.now();
  let expected = performance.now() + RESOLUTION_MS;
  let timer: NodeJS.Timeout;
  const sample = () => {
    const now = performance.now();
    const lateMs = Math.max(0, now - expected);
    histogram.observe(lateMs / 1000);
    // The HDR histogram takes integers from 1: record microseconds.
    current.record(Math.max(1, Math.round(lateMs * 1000)));
    if (now - windowStarted >= WINDOW_MS) {
      previous = current;
      current = createHistogram();
      windowStarted = now;
    }
    expected = now + RESOLUTION_MS;
    timer = setTimeout(sample, RESOLUTION_MS).unref();
  };
  timer = setTimeout(sample, RESOLUTION_MS).unref();
  return {
    p99Ms() {
      const both = createHistogram();
      both.add(previous);
      both.add(current);
      return both.count === 0 ? null : both.percentile(99) / 1000;
    },
    stop: () => clearTimeout(timer),
  };
}
