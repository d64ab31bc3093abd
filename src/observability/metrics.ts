import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
// The one import of a layer above (kept in .dependency-cruiser.cjs): the notification counter's
// label is closed over the gateway's notiTypes, so no body can add a series to /metrics.
import { isNotiType, type NotiType } from '../notifications/event-types';

export type NotificationOutcome = 'accepted' | 'duplicate' | 'conflict' | 'rejected' | 'forbidden' | 'unavailable';

/**
 * The values a `noti_type` label can take: the gateway's codes, `invalid` for a body that
 * named anything else, `unknown` when no body was read (refused source, storage down).
 * A label value taken from a body would carry whatever an invalid body holds (card numbers,
 * names) into /metrics, and every distinct value is a new series held in memory for ever.
 */
export type NotiTypeLabel = NotiType | 'invalid' | 'unknown';

function notiTypeLabel(value: unknown): NotiTypeLabel {
  if (value === 'unknown' || value === undefined || value === null) return 'unknown';
  return typeof value === 'string' && isNotiType(value) ? value : 'invalid';
}

/** Only `inc` is offered, and it maps any notiType onto the closed set, whoever the caller is. */
function closedNotiTypeLabel(counter: Counter<'noti_type' | 'outcome'>) {
  return {
    inc(labels: { noti_type: unknown; outcome: NotificationOutcome }, value?: number): void {
      counter.inc({ noti_type: notiTypeLabel(labels.noti_type), outcome: labels.outcome }, value);
    },
  };
}

/**
 * Every metric the receiver exports, on its own registry so tests and replicas never share state.
 * A thread's registry is that thread's alone: the gateway listener's thread keeps its own and the
 * main thread merges it into /metrics, without the process's metrics, which the main one reports.
 */
export function createMetrics(options: { processMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'noti_receiver_process_' });
  const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
  return {
    registry,
    notifications: closedNotiTypeLabel(new Counter({
      name: 'noti_receiver_notifications_total',
      help: 'Notifications received, by notiType and outcome',
      labelNames: ['noti_type', 'outcome'] as const,
      registers: [registry],
    })),
    ackLatency: new Histogram({
      name: 'noti_receiver_ack_latency_seconds',
      help: 'Time from request received to ack sent, by HTTP status',
      labelNames: ['status'] as const,
      buckets: latencyBuckets,
      registers: [registry],
    }),
    ingestLoopDelay: new Histogram({
      name: 'noti_receiver_ingest_loop_delay_seconds',
      help: "How late the gateway listener's event loop ran a timer: how long an ack could wait for the loop",
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    commitLatency: new Histogram({
      name: 'noti_receiver_store_commit_seconds',
      help: 'Time for the durable inbox+outbox commit (includes group-commit wait)',
      buckets: latencyBuckets,
      registers: [registry],
    }),
    consoleSignInRefusals: new Counter({
      name: 'noti_receiver_console_sign_ins_refused_total',
      help: 'Console sign-ins refused, by reason (wrong_token, locked_out, sign_on: the proxy named no single sign-on operator)',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    publishes: new Counter({
      name: 'noti_receiver_publishes_total',
      help: 'Relay publish attempts, by publisher and outcome (delivered, retry, dead)',
      labelNames: ['publisher', 'outcome'] as const,
      registers: [registry],
    }),
    publishLatency: new Histogram({
      name: 'noti_receiver_publish_seconds',
      help: 'Time for one publish to be confirmed by the destination',
      labelNames: ['publisher'] as const,
      buckets: latencyBuckets,
      registers: [registry],
    }),
    receiveToQueue: new Histogram({
      name: 'noti_receiver_receive_to_queue_seconds',
      help: 'Time from a notification being received to its event being confirmed by the queue',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    commandsFinished: new Counter({
      name: 'noti_receiver_commands_total',
      help: 'Gateway commands that reached a final state, by kind and state',
      labelNames: ['kind', 'state'] as const,
      registers: [registry],
    }),
    commandAttempts: new Counter({
      name: 'noti_receiver_command_attempts_total',
      help: 'Attempts sent to the gateway, by operation and verdict (success, final, unknown)',
      labelNames: ['operation', 'verdict'] as const,
      registers: [registry],
    }),
    netCancels: new Counter({
      name: 'noti_receiver_net_cancels_total',
      help: 'Net-cancels of approvals in doubt: started, net_cancelled, net_cancel_failed',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * One number read from the database at each scrape (every replica reads the same shared figure). A
 * read that fails leaves the last value: a scrape must never fail because the database is slow.
 */
export function scrapedGauge(metrics: Metrics, name: string, help: string, read: () => Promise<number | null>): void {
  new Gauge({
    name,
    help,
    registers: [metrics.registry],
    async collect() {
      const value = await read().catch(() => null);
      if (value !== null) this.set(value);
    },
  });
}
