import type { NotiType } from '../notifications/event-types';

export interface TypeCounts {
  sent: number;
  acked: number;
  retried: number;
  failed: number;
  unexpected: number;
}

/** An order told wrong on purpose, and the discrepancy it opens on the receiver's ledger. */
export interface FaultyOrder {
  fault: string;
  shopOrderNo: string;
  opens: string;
  /** Opens only after the receiver's LEDGER_GRACE_SECONDS without news of the order. */
  afterGrace: boolean;
}

export interface SimulationSummary {
  /** Orders, each a payment story; every notification carries the simulator's marker. */
  orders: number;
  /** The orders of `--faults`; every other order opens no discrepancy. */
  faulty: FaultyOrder[];
  /** Distinct notifications. */
  notifications: number;
  /** Notifications times (1 + duplicates): each must be acked. */
  deliveries: number;
  /** HTTP requests, retries included. */
  sent: number;
  acked: number;
  retried: number;
  /** Deliveries never acked `0000`. */
  failed: number;
  /** Answers in neither documented ack form. */
  unexpected: number;
  byType: Partial<Record<NotiType, TypeCounts>>;
  latencyMs: { p50: number; p99: number; max: number };
  durationMs: number;
  /** The first problems seen, for the operator to read. */
  problems: string[];
  /** What to change on the receiver, for the refusals whose cause is known. */
  hints: string[];
  ok: boolean;
}

export function emptyCounts(): TypeCounts {
  return { sent: 0, acked: 0, retried: 0, failed: 0, unexpected: 0 };
}

/** Nearest-rank percentile of unsorted samples; 0 for none. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function formatSummary(summary: SimulationSummary): string {
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  const lines = [
    `${summary.ok ? 'OK' : 'FAILED'}: ${summary.orders} orders, ${summary.notifications} notifications, ${summary.deliveries} deliveries in ${(summary.durationMs / 1000).toFixed(1)} s`,
    `sent ${summary.sent}  acked ${summary.acked}  retried ${summary.retried}  failed ${summary.failed}  unexpected ${summary.unexpected}`,
    `ack latency p50 ${ms(summary.latencyMs.p50)}  p99 ${ms(summary.latencyMs.p99)}  max ${ms(summary.latencyMs.max)}`,
    '',
    'event  sent  acked  retried  failed  unexpected',
    ...Object.entries(summary.byType).map(
      ([type, c]) =>
        `${type.padEnd(5)}  ${String(c.sent).padStart(4)}  ${String(c.acked).padStart(5)}  ${String(c.retried).padStart(7)}  ${String(c.failed).padStart(6)}  ${String(c.unexpected).padStart(10)}`,
    ),
  ];
  if (summary.faulty.length > 0) {
    lines.push('', 'faulty orders (each opens one discrepancy on the ledger; every other order opens none):');
    for (const f of summary.faulty) lines.push(`  ${f.shopOrderNo}  ${f.fault} -> ${f.opens}${f.afterGrace ? ' (after LEDGER_GRACE_SECONDS)' : ''}`);
  }
  if (summary.problems.length > 0) lines.push('', 'problems:', ...summary.problems.map((p) => `  - ${p}`));
  if (summary.hints.length > 0) lines.push('', 'to fix:', ...summary.hints.map((h) => `  - ${h}`));
  return lines.join('\n');
}
