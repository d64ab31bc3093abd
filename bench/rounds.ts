import { saturate, type LoadResult, type LoadSource } from './load';
import type { RunningProcess } from './processes';

/** A server under test: one process, or several replicas sharing the load. */
export interface Target {
  name: string;
  urls: string[];
  source: LoadSource;
  processes: RunningProcess[];
}

export interface RoundsResult {
  name: string;
  connections: number;
  rounds: LoadResult[];
  peakRssMb: number;
}

/**
 * The same load on each target in turn, round after round, the order reversed every other
 * round (A B, B A, A B): a drift in the shared machine's load then hits every target alike,
 * and the median of the rounds ignores one disturbed round.
 */
export async function alternatedRounds(
  targets: Target[],
  options: { connections: number; rounds: number; seconds: number; warmupSeconds: number; reserve: number; log: (line: string) => void },
): Promise<RoundsResult[]> {
  const results = new Map(targets.map((t) => [t.name, [] as LoadResult[]]));
  for (const target of targets) for (const p of target.processes) p.resetPeakRss();
  for (let round = 0; round < options.rounds; round += 1) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) {
      target.source.reserve(options.reserve);
      const result = await saturate(target.urls, target.source, options);
      options.log(`  ${options.connections} conn, round ${round + 1}, ${target.name}: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.latencyP99Ms.toFixed(1)} ms`);
      results.get(target.name)!.push(result);
    }
  }
  return targets.map((target) => ({
    name: target.name,
    connections: options.connections,
    rounds: results.get(target.name)!,
    peakRssMb: Math.max(...target.processes.map((p) => p.peakRssMb())),
  }));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Round by round against the reference (same round, minutes apart at most): median and range. */
export function ratios(result: RoundsResult, reference: RoundsResult): { median: number; min: number; max: number } {
  const perRound = result.rounds.map((r, i) => r.requestsPerSecond / reference.rounds[i]!.requestsPerSecond);
  return { median: median(perRound), min: Math.min(...perRound), max: Math.max(...perRound) };
}
