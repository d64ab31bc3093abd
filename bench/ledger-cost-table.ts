import type { AppendCost } from './ledger-append-cost';
import type { Measured } from './ledger-cost-run';
import type { LongOrder } from './ledger-long-order';
import type { MixCost } from './ledger-mix-cost';
import { median } from './rounds';
import { table } from './summary-table';

/** The figures the ledger's rework aims at, printed beside the measured ones. */
export const LEDGER_COST_GOALS = {
  /** One more input at the largest K against K=1, both databases. */
  appendRatio: 1.5,
  /** The last block of the long order's cancels against the first. */
  longRatio: 1.5,
  greatestLagS: 5,
  sqliteCpuUs: 80,
  sqliteWalPages: 3,
  postgresCpuUs: 90,
  postgresServerUs: 30,
} as const;

const STORE_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;

/** The median over the rounds of one figure; null when the store has none. */
export function medianOf<T>(runs: readonly T[], pick: (run: T) => number | null): number | null {
  const values = runs.map(pick).filter((value): value is number => value !== null && Number.isFinite(value));
  return values.length ? median(values) : null;
}

const fixed = (value: number | null, digits = 0) => (value === null ? '–' : value.toFixed(digits));
const ratioOf = (value: number | null, reference: number | null) => (value === null || reference === null || reference === 0 ? null : value / reference);
const within = (ratio: number | null, goal: number) => (ratio === null ? '–' : `${ratio.toFixed(2)}× ${ratio <= goal ? '(met)' : '(missed)'}`);

/** One more input: one row per store, build and K; each figure's ratio to the same build's K=1 row. */
export function appendTable(measured: ReadonlyArray<Measured<AppendCost>>): string {
  const smallest = new Map<string, Measured<AppendCost>>();
  for (const m of measured) {
    const key = `${m.kind} ${m.build}`;
    const current = smallest.get(key);
    if (!current || m.runs[0]!.facts < current.runs[0]!.facts) smallest.set(key, m);
  }
  const rows = measured.map((m) => {
    const reference = smallest.get(`${m.kind} ${m.build}`)!.runs;
    const of = (pick: (run: AppendCost) => number | null) => medianOf(m.runs, pick);
    const total = of((r) => r.cpu.totalUs);
    const server = of((r) => r.serverUs);
    const costRatio = ratioOf(m.kind === 'postgres' ? total! + (server ?? 0) : total, m.kind === 'postgres'
      ? medianOf(reference, (r) => r.cpu.totalUs)! + (medianOf(reference, (r) => r.serverUs) ?? 0)
      : medianOf(reference, (r) => r.cpu.totalUs));
    const walRatio = ratioOf(of((r) => r.walBytes), medianOf(reference, (r) => r.walBytes));
    return [
      STORE_NAMES[m.kind], m.build, String(m.runs[0]!.facts),
      `${fixed(of((r) => r.cpu.mainUs))} / ${fixed(of((r) => r.cpu.storeUs))} / ${fixed(total)}`,
      m.kind === 'sqlite' ? `${fixed(of((r) => r.walFrames), 1)} / ${fixed(of((r) => r.walBytes))}` : '–',
      fixed(server), m.kind === 'postgres' ? fixed(of((r) => r.toastBytes)) : '–',
      fixed(of((r) => r.wallMs), 1),
      within(costRatio, LEDGER_COST_GOALS.appendRatio), m.kind === 'sqlite' ? within(walRatio, LEDGER_COST_GOALS.appendRatio) : '–',
    ];
  });
  return [
    `One more input on an order of K facts (per input, median of ${measured[0]?.runs.length ?? 0} rounds; goal: within ${LEDGER_COST_GOALS.appendRatio}× of K=1)`,
    table(['store', 'build', 'K', 'CPU µs main / store threads / process', 'WAL pages / bytes', 'server CPU µs', 'TOAST B', 'wall ms', 'CPU (+server) vs smallest K', 'WAL vs smallest K'], rows),
  ].join('\n');
}

export function longTable(measured: ReadonlyArray<Measured<LongOrder>>, block: number): string {
  const rows = measured.map((m) => {
    const of = (pick: (run: LongOrder) => number) => medianOf(m.runs, pick);
    const first = of((r) => r.firstMs);
    const last = of((r) => r.lastMs);
    const lag = of((r) => r.greatestLagS);
    return [
      STORE_NAMES[m.kind], m.build, `${m.runs[0]!.cancels} at ${m.runs[0]!.rate}/s`,
      fixed(first), fixed(last), within(ratioOf(last, first), LEDGER_COST_GOALS.longRatio),
      `${fixed(lag, 2)} ${lag !== null && lag <= LEDGER_COST_GOALS.greatestLagS ? '(met)' : '(missed)'}`, fixed(of((r) => r.batches)),
    ];
  });
  return [
    `One order's cancels (projector ms on the first and the last ${block}; goal: last within ${LEDGER_COST_GOALS.longRatio}× of first, never more than ${LEDGER_COST_GOALS.greatestLagS} s behind)`,
    table(['store', 'build', 'cancels', `first ${block} ms`, `last ${block} ms`, 'last / first', 'greatest lag s', 'batches'], rows),
  ].join('\n');
}

export function mixTable(measured: ReadonlyArray<Measured<MixCost>>): string {
  const rows = measured.map((m) => {
    const of = (pick: (run: MixCost) => number | null) => medianOf(m.runs, pick);
    const total = of((r) => r.cpu.totalUs);
    const goal = m.kind === 'sqlite'
      ? `≤ ${LEDGER_COST_GOALS.sqliteCpuUs} µs, ≤ ${LEDGER_COST_GOALS.sqliteWalPages} pages`
      : `≤ ${LEDGER_COST_GOALS.postgresCpuUs} µs + ${LEDGER_COST_GOALS.postgresServerUs} µs server`;
    return [
      STORE_NAMES[m.kind], m.build, `${m.runs[0]!.notifications} at ${fixed(of((r) => r.perSecond))}/s`,
      `${fixed(of((r) => r.cpu.mainUs))} / ${fixed(of((r) => r.cpu.storeUs))} / ${fixed(total)}`,
      m.kind === 'sqlite' ? fixed(of((r) => r.walPages), 2) : '–', fixed(of((r) => r.serverUs)), goal,
    ];
  });
  return [
    'Per notification on a steady mix after a warm-up (acks and projection)',
    table(['store', 'build', 'measured', 'CPU µs main / store threads / process', 'WAL pages', 'server CPU µs', 'goal'], rows),
  ].join('\n');
}
