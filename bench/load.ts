import autocannon from 'autocannon';
import { NOTI_TYPES } from '../src/notifications/event-types';
import { planNotifications, type WireNotification } from '../src/simulator/scenario';

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** True when the pool of fresh notifications ran out and the load became all redeliveries. */
  poolExhausted: boolean;
}

/** One in five requests repeats an earlier notification, as the gateway's redeliveries do. */
const REDELIVERY_EVERY = 5;
/** Redeliveries pick from the most recent notifications, where the dedup race is sharpest. */
const REDELIVERY_WINDOW = 2000;

/** Fresh notifications of every event type (event 70's EUC-KR form included), built up front so generation costs nothing under load. */
export function notificationPool(size: number): WireNotification[] {
  return planNotifications(NOTI_TYPES, Math.ceil(size / NOTI_TYPES.length));
}

/**
 * Hands out notifications: four in five fresh, one in five a redelivery of a recent one. One
 * source spans a receiver's warm-up and measured run, so the run does not start by replaying
 * the warm-up's notifications as an unrealistic wall of duplicates.
 */
export function loadSource(pool: WireNotification[]) {
  let sent = 0;
  let fresh = 0;
  let exhausted = false;
  return {
    next(): WireNotification {
      sent += 1;
      if (sent % REDELIVERY_EVERY === 0 && fresh > 0) return pool[fresh - 1 - Math.floor(Math.random() * Math.min(fresh, REDELIVERY_WINDOW))]!;
      if (fresh >= pool.length) {
        exhausted = true;
        return pool[Math.floor(Math.random() * pool.length)]!;
      }
      return pool[fresh++]!;
    },
    exhausted: () => exhausted,
  };
}

export type LoadSource = ReturnType<typeof loadSource>;

export async function runLoad(url: string, source: LoadSource, options: { connections: number; durationSeconds: number; overallRate?: number }): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSeconds,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const notification = source.next();
          return { ...request, body: notification.body, headers: { 'content-type': notification.contentType } };
        },
      },
    ],
  });
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    poolExhausted: source.exhausted(),
  };
}
