import type { NotiType } from '../notifications/event-types';
import { checkAck } from './ack-check';
import { ProblemLog } from './problem-log';
import { createPoster, type Poster } from './http-post';
import { planNotifications, type WireNotification } from './scenario';
import { emptyCounts, percentile, type SimulationSummary, type TypeCounts } from './simulation-summary';

export interface SimulationOptions {
  url: string;
  events: readonly NotiType[];
  /** Notifications per event type. */
  count: number;
  /** Extra copies of each notification, as the gateway's redeliveries of something already acked. */
  duplicates: number;
  concurrency: number;
  /** Resend what was not acked `0000`, as the gateway does. */
  gatewayRetries: boolean;
  /** The gateway waits 3 minutes between tries; tests use milliseconds. */
  retryIntervalMs: number;
  forwardedFor?: string;
  timeoutMs?: number;
  /** Told before each round of resends, so a long wait between tries is never silent. */
  onProgress?: (message: string) => void;
}

/** The gateway gives up on a notification after this many tries. */
export const GATEWAY_MAX_TRIES = 10;
export const GATEWAY_RETRY_INTERVAL_MS = 3 * 60_000;

/**
 * Sends every notification (and its redeliveries) the way the gateway does and judges each
 * answer. Redeliveries go out after all originals were handed to the workers, so with
 * concurrency some arrive while their original is still being committed — the race the
 * receiver's dedup must win.
 */
export async function runSimulation(options: SimulationOptions): Promise<SimulationSummary> {
  const notifications = planNotifications(options.events, options.count);
  const deliveries: WireNotification[] = [];
  for (let round = 0; round <= options.duplicates; round += 1) deliveries.push(...notifications);

  const poster = createPoster(options.url, { maxSockets: options.concurrency, timeoutMs: options.timeoutMs ?? 30_000 });
  const byType: Partial<Record<NotiType, TypeCounts>> = {};
  const latencies: number[] = [];
  const problems = new ProblemLog();
  const announced = new Set<number>();
  // Deliveries retry independently; one progress line per try number keeps the output short.
  const announceRetry = (attempt: number, reason: string) => {
    if (announced.has(attempt)) return;
    announced.add(attempt);
    options.onProgress?.(`not acked yet (${reason}); try ${attempt} of ${GATEWAY_MAX_TRIES} in ${seconds(options.retryIntervalMs)}`);
  };
  const started = Date.now();

  let next = 0;
  const worker = async () => {
    while (next < deliveries.length) {
      const delivery = deliveries[next++]!;
      const counts = (byType[delivery.notiType] ??= emptyCounts());
      await deliver(delivery, poster, options, counts, latencies, problems, announceRetry);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  } finally {
    poster.close();
  }

  const totals = Object.values(byType).reduce((sum, c) => {
    for (const key of Object.keys(sum) as Array<keyof TypeCounts>) sum[key] += c[key];
    return sum;
  }, emptyCounts());
  return {
    notifications: notifications.length,
    deliveries: deliveries.length,
    ...totals,
    byType,
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: percentile(latencies, 100) },
    durationMs: Date.now() - started,
    problems: problems.lines(),
    hints: problems.hints(),
    ok: totals.failed === 0 && totals.unexpected === 0,
  };
}

async function deliver(
  delivery: WireNotification,
  poster: Poster,
  options: SimulationOptions,
  counts: TypeCounts,
  latencies: number[],
  problems: ProblemLog,
  announceRetry: (attempt: number, reason: string) => void,
): Promise<void> {
  const headers: Record<string, string> = { 'Content-Type': delivery.contentType };
  if (options.forwardedFor) headers['X-Forwarded-For'] = options.forwardedFor;
  const maxTries = options.gatewayRetries ? GATEWAY_MAX_TRIES : 1;
  let lastReason = '';
  for (let attempt = 1; attempt <= maxTries; attempt += 1) {
    if (attempt > 1) {
      counts.retried += 1;
      announceRetry(attempt, lastReason);
      await new Promise((resolve) => setTimeout(resolve, options.retryIntervalMs));
    }
    counts.sent += 1;
    const sentAt = process.hrtime.bigint();
    try {
      const answer = await poster.post(delivery.body, headers);
      latencies.push(Number(process.hrtime.bigint() - sentAt) / 1e6);
      const verdict = checkAck(delivery.ackForm, answer.status, answer.body);
      if (verdict.kind === 'acked') {
        counts.acked += 1;
        return;
      }
      lastReason = verdict.reason;
      if (verdict.kind === 'unexpected') {
        counts.unexpected += 1;
        problems.add(delivery.notiType, `unexpected ack: ${verdict.reason}`);
      }
    } catch (error) {
      lastReason = `network error: ${(error as Error).message}`;
    }
  }
  counts.failed += 1;
  problems.add(delivery.notiType, `never acked after ${maxTries} ${maxTries === 1 ? 'try' : 'tries'} (last: ${lastReason})`);
}

function seconds(ms: number): string {
  return ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(1)} s`;
}
