import type { PacedResult } from './load';

/** One side of a scenario's comparison: the probe's acks, the ingest loop's delay, the machine's load. */
export interface ProbeRun {
  probe: PacedResult;
  /** The p99 of the ingest loop's delay over the run (`n/a` when the build has no such metric). */
  loopDelay: { text: string; ms: number | null };
  /** The one-minute load average as the run ended. */
  load: number;
  /** The share of the run in which some task waited for a CPU (Linux PSI); null where unknown. */
  cpuWaited?: number | null;
}

export interface ScenarioRow {
  store: string;
  build: string;
  scenario: string;
  alone: ProbeRun;
  during: ProbeRun;
  /** The scenario's own requests that failed (not the probe's). */
  failed: number;
  note: string;
}

/** The goals each row is held to. */
const GOALS = { ratio: 1.5, p99Ms: 250, loopDelayMs: 10 };

const ms = (value: number) => `${value.toFixed(1)}`;
const mark = (met: boolean) => (met ? '✓' : '✗');
const share = (value: number | null | undefined) => (value === null || value === undefined ? 'n/a' : `${(value * 100).toFixed(0)} %`);
const acks = (p: PacedResult) => `${ms(p.latencyP50Ms)} / ${ms(p.latencyP99Ms)} / ${ms(p.latencyMaxMs)} ms`;

export const TABLE_HEADER = [
  '| store | build | during | acks alone p50 / p99 / max | acks during p50 / p99 / max | p99 ratio (≤ 1.5×) | p99 during < 250 ms | refused (0) | ingest loop delay p99 alone / during (< 10 ms) | load average alone / during | CPU waited alone / during | probe rate alone / during | the scenario |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
];

/** One markdown row: every figure beside the load it was taken under, and whether each goal is met. */
export function tableRow(row: ScenarioRow): string {
  const { alone, during } = row;
  const ratio = during.probe.latencyP99Ms / alone.probe.latencyP99Ms;
  const refused = alone.probe.bad + during.probe.bad;
  const delay = during.loopDelay.ms === null ? '' : ` ${mark(during.loopDelay.ms < GOALS.loopDelayMs)}`;
  const scenario = row.failed > 0 ? `${row.note}; ${row.failed} of its own requests failed` : row.note;
  return `| ${[
    row.store, row.build, row.scenario, acks(alone.probe), acks(during.probe),
    `${ratio.toFixed(2)}× ${mark(ratio <= GOALS.ratio)}`,
    `${ms(during.probe.latencyP99Ms)} ms ${mark(during.probe.latencyP99Ms < GOALS.p99Ms)}`,
    `${refused} ${mark(refused === 0)}`,
    `${alone.loopDelay.text} / ${during.loopDelay.text}${delay}`,
    `${alone.load.toFixed(2)} / ${during.load.toFixed(2)}`,
    `${share(alone.cpuWaited)} / ${share(during.cpuWaited)}`,
    `${alone.probe.requestsPerSecond.toFixed(0)}/s / ${during.probe.requestsPerSecond.toFixed(0)}/s`,
    scenario,
  ].join(' | ')} |`;
}
