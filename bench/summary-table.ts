import type { LoadResult } from './load';
import { percentile } from '../src/simulator/simulation-summary';

export interface PhaseResult extends LoadResult {
  phase: string;
  peakRssMb: number;
  /** From tailing the events file: one sample per event forwarded during the run and the drain. */
  receiveToQueue?: { p50Ms: number; p99Ms: number; maxMs: number; events: number };
  /** After the load stopped, how long the relay took to empty the outbox. */
  drainSeconds?: number;
  pendingAfterDrain?: number;
  /** Events the relay forwarded per second over the run and the drain. */
  relayPerSecond?: number;
}

export function receiveToQueueStats(latenciesMs: number[]): PhaseResult['receiveToQueue'] {
  if (latenciesMs.length === 0) return undefined;
  return {
    p50Ms: percentile(latenciesMs, 50),
    p99Ms: percentile(latenciesMs, 99),
    maxMs: percentile(latenciesMs, 100),
    events: latenciesMs.length,
  };
}

export function summaryTable(results: PhaseResult[], bareRps: number): string {
  const rows = results.map((r) => [
    r.phase,
    r.requestsPerSecond.toFixed(0),
    (r.requestsPerSecond / bareRps).toFixed(2),
    r.latencyP50Ms.toFixed(0),
    r.latencyP99Ms.toFixed(0),
    String(r.non2xx + r.errors + r.timeouts),
    r.peakRssMb.toFixed(0),
    r.receiveToQueue ? `${fmt(r.receiveToQueue.p50Ms)} / ${fmt(r.receiveToQueue.p99Ms)}` : '-',
    r.relayPerSecond === undefined ? '-' : r.relayPerSecond.toFixed(0),
    r.drainSeconds === undefined ? '-' : `${r.drainSeconds.toFixed(1)}${r.pendingAfterDrain ? ` (${r.pendingAfterDrain} left)` : ''}`,
    r.poolExhausted ? 'yes' : 'no',
  ]);
  const headers = ['phase', 'req/s', 'ratio', 'p50 ms', 'p99 ms', 'bad', 'peak RSS MB', 'recv→queue p50 / p99', 'relay ev/s', 'drain s', 'pool reused'];
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`;
}
