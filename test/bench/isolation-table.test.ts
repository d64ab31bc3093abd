import { tableRow, TABLE_HEADER, type ProbeRun } from '../../bench/isolation-table';
import type { PacedResult } from '../../bench/load';

function run(p50: number, p99: number, max: number, bad: number, loopDelay: ProbeRun['loopDelay'], load = 1.25, cpuWaited: number | null = null): ProbeRun {
  const probe: PacedResult = { requests: 3000, requestsPerSecond: 199.6, latencyP50Ms: p50, latencyP99Ms: p99, latencyMaxMs: max, bad, poolExhausted: false, sendLagP99Ms: 1 };
  return { probe, loopDelay, load, cpuWaited };
}

const cells = (row: string) => row.split(' | ').map((cell) => cell.replace(/^\| | \|$/g, ''));

describe('the isolation bench\'s table', () => {
  it('holds each scenario to its own probe alone and to the fixed goals, beside the load it ran under', () => {
    const row = tableRow({
      store: 'SQLite', build: 'this build', scenario: '(d) orders.xlsx',
      alone: run(2, 10, 30, 0, { text: '1.0 ms', ms: 1 }, 0.5, 0.041), during: run(3, 20, 40, 1, { text: '12.5 ms', ms: 12.5 }, 1.75, null),
      failed: 0, note: 'done',
    });
    const columns = cells(TABLE_HEADER[0]!);
    const values = cells(row);
    expect(values).toHaveLength(columns.length);
    const at = (name: string) => values[columns.findIndex((c) => c.startsWith(name))];
    expect(at('acks alone')).toBe('2.0 / 10.0 / 30.0 ms');
    expect(at('acks during')).toBe('3.0 / 20.0 / 40.0 ms');
    expect(at('p99 ratio')).toBe('2.00× ✗');
    expect(at('p99 during')).toBe('20.0 ms ✓');
    expect(at('refused')).toBe('1 ✗');
    expect(at('ingest loop delay')).toBe('1.0 ms / 12.5 ms ✗');
    expect(at('load average')).toBe('0.50 / 1.75');
    expect(at('CPU waited')).toBe('4 % / n/a');
    expect(at('probe rate')).toBe('200/s / 200/s');
  });

  it('marks no loop-delay goal for a build without the metric, and says a scenario\'s own failures in its note', () => {
    const row = tableRow({
      store: 'PostgreSQL', build: 'baseline', scenario: '(e)',
      alone: run(2, 10, 30, 0, { text: 'n/a', ms: null }), during: run(2, 12, 30, 0, { text: 'n/a', ms: null }),
      failed: 2, note: 'API 400 ×10',
    });
    const values = cells(row);
    expect(values).toContain('1.20× ✓');
    expect(values).toContain('0 ✓');
    expect(values).toContain('n/a / n/a');
    expect(values.at(-1)).toBe('API 400 ×10; 2 of its own requests failed');
  });
});
