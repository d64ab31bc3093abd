/**
 * The ingest loop's delay as the receiver's admin listener reports it: the histogram
 * `noti_receiver_ingest_loop_delay_seconds` on `/metrics`, read before and after a run, and the
 * p99 of what the run added (the difference bucket by bucket, as Prometheus's
 * `histogram_quantile` over an `increase`). A build without the metric reads as absent (`n/a`), so
 * the bench measures builds from before and after it alike.
 */
export const LOOP_DELAY_METRIC = 'noti_receiver_ingest_loop_delay_seconds';

/** Cumulative counts by upper bound in seconds (`+Inf` last), summed over every other label. */
export type Histogram = Map<number, number>;

/** The histogram in a Prometheus text exposition, or null when the exposition has none. */
export function parseHistogram(exposition: string, name = LOOP_DELAY_METRIC): Histogram | null {
  const histogram: Histogram = new Map();
  const line = new RegExp(`^${name}_bucket\\{(.*)\\}\\s+(\\S+)`);
  for (const text of exposition.split('\n')) {
    const match = line.exec(text);
    if (!match) continue;
    const le = /(?:^|,)\s*le="([^"]+)"/.exec(match[1]!);
    if (!le) continue;
    const bound = le[1] === '+Inf' ? Infinity : Number(le[1]);
    histogram.set(bound, (histogram.get(bound) ?? 0) + Number(match[2]));
  }
  return histogram.size === 0 ? null : new Map([...histogram].sort(([a], [b]) => a - b));
}

/** What `after` counted since `before`, bucket by bucket (a bucket `before` lacks counted from 0). */
export function histogramIncrease(before: Histogram | null, after: Histogram | null): Histogram | null {
  if (after === null) return null;
  return new Map([...after].map(([bound, count]) => [bound, count - (before?.get(bound) ?? 0)]));
}

/**
 * The p99 in milliseconds, interpolated within its bucket as `histogram_quantile` does; null when
 * nothing was counted. A p99 beyond the last finite bound is that bound (the table says `>`).
 */
export function histogramP99Ms(histogram: Histogram): { ms: number; beyond: boolean } | null {
  const buckets = [...histogram];
  const total = buckets.at(-1)?.[1] ?? 0;
  if (total <= 0) return null;
  const rank = 0.99 * total;
  let lower = 0;
  let below = 0;
  for (const [bound, count] of buckets) {
    if (count >= rank) {
      if (bound === Infinity) return { ms: lower * 1000, beyond: true };
      const within = count - below;
      return { ms: (lower + (bound - lower) * (within > 0 ? (rank - below) / within : 1)) * 1000, beyond: false };
    }
    lower = bound;
    below = count;
  }
  return { ms: lower * 1000, beyond: true };
}

/** Reads the histogram from a running receiver's `/metrics`; null when it is absent or unread. */
export async function scrapeLoopDelay(adminUrl: string): Promise<Histogram | null> {
  try {
    const response = await fetch(`${adminUrl}/metrics`);
    return response.ok ? parseHistogram(await response.text()) : null;
  } catch {
    return null;
  }
}

/** The p99 a run added, for the table: `3.2 ms`, `> 1000.0 ms`, `no samples`, or `n/a` (no such metric). */
export function loopDelayText(before: Histogram | null, after: Histogram | null): { text: string; ms: number | null } {
  const increase = histogramIncrease(before, after);
  if (increase === null) return { text: 'n/a', ms: null };
  const p99 = histogramP99Ms(increase);
  if (p99 === null) return { text: 'no samples', ms: null };
  return { text: `${p99.beyond ? '> ' : ''}${p99.ms.toFixed(1)} ms`, ms: p99.beyond ? Infinity : p99.ms };
}
