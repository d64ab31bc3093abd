/** A Prometheus histogram read from the text exposition format. */
export interface HistogramSnapshot {
  count: number;
  sum: number;
  /** Cumulative counts by upper bound, ascending, +Inf last. */
  buckets: Array<{ le: number; count: number }>;
}

export function parseHistogram(text: string, name: string): HistogramSnapshot | null {
  const buckets: Array<{ le: number; count: number }> = [];
  let count = 0;
  let sum = 0;
  for (const line of text.split('\n')) {
    const bucket = new RegExp(`^${name}_bucket\\{.*le="([^"]+)".*\\} (\\S+)`).exec(line);
    if (bucket) buckets.push({ le: bucket[1] === '+Inf' ? Infinity : Number(bucket[1]), count: Number(bucket[2]) });
    else if (line.startsWith(`${name}_count`)) count = Number(line.split(' ').pop());
    else if (line.startsWith(`${name}_sum`)) sum = Number(line.split(' ').pop());
  }
  return buckets.length === 0 ? null : { count, sum, buckets: buckets.sort((a, b) => a.le - b.le) };
}

/** The quantile by linear interpolation inside its bucket, as Prometheus' histogram_quantile does. */
export function histogramQuantile(h: HistogramSnapshot, q: number): number {
  const rank = q * h.count;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const { le, count } of h.buckets) {
    if (count >= rank) {
      if (le === Infinity) return lowerBound;
      return lowerBound + (le - lowerBound) * ((rank - lowerCount) / Math.max(1, count - lowerCount));
    }
    lowerBound = le;
    lowerCount = count;
  }
  return lowerBound;
}
