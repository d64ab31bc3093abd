import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Store } from '../store/store';

export type NotificationOutcome = 'accepted' | 'duplicate' | 'conflict' | 'rejected' | 'forbidden' | 'unavailable';

/** Every metric the receiver exports, on its own registry so tests and replicas never share state. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'noti_receiver_process_' });
  const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
  return {
    registry,
    notifications: new Counter({
      name: 'noti_receiver_notifications_total',
      help: 'Notifications received, by notiType and outcome',
      labelNames: ['noti_type', 'outcome'] as const,
      registers: [registry],
    }),
    ackLatency: new Histogram({
      name: 'noti_receiver_ack_latency_seconds',
      help: 'Time from request received to ack sent, by HTTP status',
      labelNames: ['status'] as const,
      buckets: latencyBuckets,
      registers: [registry],
    }),
    commitLatency: new Histogram({
      name: 'noti_receiver_store_commit_seconds',
      help: 'Time for the durable inbox+outbox commit (includes group-commit wait)',
      buckets: latencyBuckets,
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

/** Backlog gauges read the store at scrape time, so they are right on every replica. */
export function registerBacklogGauges(metrics: Metrics, store: Store): void {
  let last: Promise<Awaited<ReturnType<Store['backlog']>> | null> | null = null;
  const backlog = () => {
    // One store read per scrape serves all three gauges.
    last ??= store.backlog(Date.now()).catch(() => null).finally(() => setImmediate(() => (last = null)));
    return last;
  };
  new Gauge({
    name: 'noti_receiver_outbox_pending',
    help: 'Events stored but not yet confirmed by the queue',
    registers: [metrics.registry],
    async collect() {
      const b = await backlog();
      if (b) this.set(b.pending);
    },
  });
  new Gauge({
    name: 'noti_receiver_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest undelivered event (0 when none)',
    registers: [metrics.registry],
    async collect() {
      const b = await backlog();
      if (b) this.set((b.oldestPendingAgeMs ?? 0) / 1000);
    },
  });
  new Gauge({
    name: 'noti_receiver_outbox_dead',
    help: 'Events the relay gave up on (permanent failure); need an operator',
    registers: [metrics.registry],
    async collect() {
      const b = await backlog();
      if (b) this.set(b.dead);
    },
  });
}

/** What the command gauges read; the command store provides it. */
export interface CommandCounts {
  countByState(): Promise<Array<{ state: string; count: number }>>;
  countWorkingSince(before: string): Promise<number>;
}

/**
 * Alert-worthy command gauges, read from the store at scrape time: an approval whose net-cancel
 * failed may have charged a customer, and a command pending for long means the gateway or the
 * worker is stuck.
 */
export function registerCommandGauges(metrics: Metrics, commands: CommandCounts, pendingAlertMs: number): void {
  new Gauge({
    name: 'noti_receiver_commands_net_cancel_failed',
    help: 'VAN approvals whose net-cancel failed: an approval may stand at the gateway; reconcile by hand',
    registers: [metrics.registry],
    async collect() {
      const rows = await commands.countByState().catch(() => null);
      if (rows) this.set(rows.filter((r) => r.state === 'net_cancel_failed').reduce((sum, r) => sum + r.count, 0));
    },
  });
  new Gauge({
    name: 'noti_receiver_commands_long_pending',
    help: 'Commands still being resent or net-cancelled longer than COMMAND_PENDING_ALERT_MS after creation',
    registers: [metrics.registry],
    async collect() {
      const count = await commands.countWorkingSince(new Date(Date.now() - pendingAlertMs).toISOString()).catch(() => null);
      if (count !== null) this.set(count);
    },
  });
}
