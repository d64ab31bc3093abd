import type { NotiType } from '../notifications/event-types';
import { checkAck } from './ack-check';
import { ProblemLog } from './problem-log';
import { createPoster, type Poster } from './http-post';
import { FAULTS, type FaultName } from './faulty-stories';
import type { PaymentStory } from './payment-stories';
import { registerExpectation, type ApiTarget } from './register-expectation';
import { planStories } from './scenario';
import type { Signer } from './simulator-signer';
import type { WireNotification } from './wire-notification';
import { emptyCounts, percentile, type SimulationSummary, type TypeCounts } from './simulation-summary';

export interface SimulationOptions {
  url: string;
  events: readonly NotiType[];
  /** Orders (coherent payment stories) per event type. */
  count: number;
  /** One order per fault, each told wrong on purpose to open that discrepancy. */
  faults?: readonly FaultName[];
  /** The internal API, for the faults that register the order's expectation first. */
  api?: ApiTarget;
  /** Extra copies of each notification, as the gateway's redeliveries of something already acked. */
  duplicates: number;
  concurrency: number;
  /** Resend what was not acked `0000`, as the gateway does. */
  gatewayRetries: boolean;
  /** The gateway waits 3 minutes between tries; tests use milliseconds. */
  retryIntervalMs: number;
  forwardedFor?: string;
  /**
   * Marks every notification as this receiver's simulator's (simulator-signer.ts), so its ledger
   * keeps these orders out of the money and the alerts; absent: the receiver takes them for real ones.
   */
  sign?: Signer | null;
  timeoutMs?: number;
  /** Told before each round of resends, so a long wait between tries is never silent. */
  onProgress?: (message: string) => void;
}

/** The gateway gives up on a notification after this many tries. */
export const GATEWAY_MAX_TRIES = 10;
export const GATEWAY_RETRY_INTERVAL_MS = 3 * 60_000;

/**
 * Sends every order's notifications in its story's order, each once the previous one was acked,
 * as the gateway does (the orders themselves go out side by side), and judges each answer. The
 * redeliveries go out after every original was handed to the workers, an order's again in its
 * order, so with concurrency some arrive while their original is still being committed (the race
 * the receiver's dedup must win) but none before what it follows was stored.
 */
export async function runSimulation(options: SimulationOptions): Promise<SimulationSummary> {
  const faults = options.faults ?? [];
  const needy = faults.filter((fault) => FAULTS[fault].needsExpectation);
  if (needy.length > 0 && !options.api) throw new Error(`${needy.join(', ')} need${needy.length === 1 ? 's' : ''} the internal API to register the order's expectation: pass its URL (and API_TOKEN)`);
  const stories = planStories(options.events, options.count, faults);
  const rounds: Array<{ story: PaymentStory; original: boolean }> = [];
  for (let round = 0; round <= options.duplicates; round += 1) rounds.push(...stories.map((story) => ({ story, original: round === 0 })));

  const timeoutMs = options.timeoutMs ?? 30_000;
  const poster = createPoster(options.url, { maxSockets: options.concurrency, timeoutMs });
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
    while (next < rounds.length) {
      const { story, original } = rounds[next++]!;
      if (original && story.expectation && options.api) {
        const problem = await registerExpectation(options.api, story.shopOrderNo, story.expectation, timeoutMs);
        if (problem) problems.add(story.steps[0]!.notiType, `expectation not registered: ${problem}`);
      }
      for (const delivery of story.steps) {
        const counts = (byType[delivery.notiType] ??= emptyCounts());
        await deliver(delivery, poster, options, counts, latencies, problems, announceRetry);
      }
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
  const notifications = stories.reduce((sum, story) => sum + story.steps.length, 0);
  return {
    orders: stories.length,
    notifications,
    deliveries: notifications * (options.duplicates + 1),
    faulty: stories.filter((story) => story.title in FAULTS).map((story) => {
      const fault = FAULTS[story.title as FaultName];
      return { fault: story.title, shopOrderNo: story.shopOrderNo, opens: fault.opens, afterGrace: fault.afterGrace };
    }),
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
  const headers: Record<string, string> = { 'Content-Type': delivery.contentType, ...options.sign?.(delivery.body) };
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
