import type { PacedResult } from './load';
import { median, ratios, type RoundsResult } from './rounds';

export interface PacedRow extends PacedResult {
  name: string;
  receiveToQueue?: { p50Ms: number; p99Ms: number; events: number };
}

/** One row per target and connection count: medians over the alternated rounds. */
export function roundsTable(groups: Array<{ results: RoundsResult[]; reference: RoundsResult }>): string {
  const rows = groups.flatMap(({ results, reference }) =>
    results.map((r) => {
      const ratio = ratios(r, reference);
      const bad = r.rounds.reduce((sum, round) => sum + round.bad, 0);
      return [
        String(r.connections),
        r.name,
        median(r.rounds.map((x) => x.requestsPerSecond)).toFixed(0),
        r === reference ? '1.00' : `**${ratio.median.toFixed(2)}** (${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)})`,
        median(r.rounds.map((x) => x.latencyP50Ms)).toFixed(1),
        median(r.rounds.map((x) => x.latencyP99Ms)).toFixed(1),
        String(bad),
        r.peakRssMb.toFixed(0),
        r.rounds.some((x) => x.poolExhausted) ? 'yes' : 'no',
      ];
    }),
  );
  return table(['conns', 'server', 'req/s', 'ratio (range)', 'p50 ms', 'p99 ms', 'bad', 'peak RSS MB', 'pool reused'], rows);
}

export function pacedTable(results: PacedRow[]): string {
  const rows = results.map((r) => [
    r.name,
    r.requestsPerSecond.toFixed(0),
    r.latencyP50Ms.toFixed(1),
    r.latencyP99Ms.toFixed(1),
    r.latencyMaxMs.toFixed(1),
    r.sendLagP99Ms.toFixed(1),
    String(r.bad),
    // Measured over all runs, on the summary row; no line forwarded means nothing to measure, not a latency of 0.
    r.receiveToQueue === undefined ? '' : r.receiveToQueue.events ? `${r.receiveToQueue.p50Ms.toFixed(0)} / ${r.receiveToQueue.p99Ms.toFixed(0)} ms (${r.receiveToQueue.events} events)` : 'no events',
    r.poolExhausted ? 'yes' : 'no',
  ]);
  return table(['paced', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'send lag p99 ms', 'bad', 'recv→queue p50 / p99', 'pool reused'], rows);
}

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
