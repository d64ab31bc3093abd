import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Backlog, Store } from '../store/store';

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
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Store and backlog gauges read the store at scrape time, so they are right on every replica.
 * While the store cannot answer, `store_up` is 0 and the backlog gauges are absent rather
 * than frozen at their last value: an alert must not read an outage as "backlog steady".
 */
export function registerBacklogGauges(metrics: Metrics, store: Pick<Store, 'backlog' | 'ping'>): void {
  let last: Promise<Backlog | null> | null = null;
  const backlog = () => {
    // One store read per scrape serves every gauge.
    last ??= readBacklog(store).finally(() => setImmediate(() => (last = null)));
    return last;
  };
  new Gauge({
    name: 'noti_receiver_store_up',
    help: '1 when the store answered at this scrape, 0 when it did not (acks fail with 503 meanwhile)',
    registers: [metrics.registry],
    async collect() {
      this.set((await backlog()) ? 1 : 0);
    },
  });
  const backlogGauge = (name: string, help: string, value: (b: Backlog) => number) =>
    new Gauge({
      name,
      help,
      registers: [metrics.registry],
      async collect() {
        const b = await backlog();
        if (b) this.set(value(b));
        else this.remove();
      },
    });
  backlogGauge('noti_receiver_outbox_pending', 'Events stored but not yet confirmed by the queue', (b) => b.pending);
  backlogGauge(
    'noti_receiver_outbox_oldest_pending_age_seconds',
    'Age of the oldest undelivered event (0 when none)',
    (b) => (b.oldestPendingAgeMs ?? 0) / 1000,
  );
  backlogGauge('noti_receiver_outbox_dead', 'Events the relay gave up on (permanent failure); need an operator', (b) => b.dead);
}

async function readBacklog(store: Pick<Store, 'backlog' | 'ping'>): Promise<Backlog | null> {
  try {
    await store.ping();
    return await store.backlog(Date.now());
  } catch {
    // The outage itself is logged by the request and relay paths; here it is the store_up gauge.
    return null;
  }
}

/**
 * 1 on the replica whose relay holds the relay lock. Summed over replicas it must be 1:
 * 0 means nobody forwards events, however healthy each replica looks.
 */
export function registerRelayGauge(metrics: Metrics, relay: { state(): { holdsLock: boolean } }): void {
  new Gauge({
    name: 'noti_receiver_relay_lock_held',
    help: '1 when this replica runs the relay (holds the relay lock), else 0',
    registers: [metrics.registry],
    collect() {
      this.set(relay.state().holdsLock ? 1 : 0);
    },
  });
}
