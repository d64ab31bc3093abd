import { EVENT_TYPES } from '../notifications/event-types';
import type { ActivityBucket } from '../store/store';

const HOUR_MS = 60 * 60 * 1000;

export interface ActivitySeries {
  /** Start of each hour, epoch seconds (uPlot's x axis). */
  hours: number[];
  series: Array<{ type: string; counts: number[]; total: number; colour: string }>;
}

/**
 * Each of the gateway's types keeps its own colour from page to page (a reader learns that
 * approvals are blue), and no two series of one chart share one: a legend that repeats a colour
 * cannot tell its lines apart.
 */
const PALETTE = ['#2563eb', '#16a34a', '#d97706', '#dc2626', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];
const TYPE_COLOURS: ReadonlyMap<string, string> = new Map(Object.values(EVENT_TYPES).map((type, i) => [type, PALETTE[i % PALETTE.length]!]));

/** A type the palette does not know gets a hue of its own, spread by the golden angle so neighbours differ. */
const colourOf = (type: string, i: number): string => TYPE_COLOURS.get(type) ?? `hsl(${Math.round((i * 137.508 + 20) % 360)}, 70%, 38%)`;

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
      .map(([type, counts], i) => ({ type, counts, total: counts.reduce((sum, n) => sum + n, 0), colour: colourOf(type, i) })),
  };
}

export function activitySince(now: Date, hoursBack = 24): string {
  return new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (hoursBack - 1) * HOUR_MS).toISOString();
}
