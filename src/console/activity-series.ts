import type { ActivityBucket } from '../store/store';

const HOUR_MS = 60 * 60 * 1000;

export interface ActivitySeries {
  /** Start of each hour, epoch seconds (uPlot's x axis). */
  hours: number[];
  series: Array<{ type: string; counts: number[]; total: number }>;
}

/** The last `hoursBack` whole hours up to now, every hour present (zero when quiet), one series per type seen. */
export function activitySeries(buckets: ActivityBucket[], now: Date, hoursBack = 24): ActivitySeries {
  const lastHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const starts = Array.from({ length: hoursBack }, (_, i) => lastHour - (hoursBack - 1 - i) * HOUR_MS);
  const index = new Map(starts.map((ms, i) => [new Date(ms).toISOString().slice(0, 13), i]));
  const byType = new Map<string, number[]>();
  for (const bucket of buckets) {
    const i = index.get(bucket.hour);
    if (i === undefined) continue;
    const counts = byType.get(bucket.type) ?? new Array<number>(hoursBack).fill(0);
    counts[i] = (counts[i] ?? 0) + bucket.count;
    byType.set(bucket.type, counts);
  }
  return {
    hours: starts.map((ms) => ms / 1000),
    series: [...byType.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([type, counts]) => ({ type, counts, total: counts.reduce((sum, n) => sum + n, 0) })),
  };
}

export function activitySince(now: Date, hoursBack = 24): string {
  return new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (hoursBack - 1) * HOUR_MS).toISOString();
}
