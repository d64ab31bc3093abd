import { Gauge } from 'prom-client';
import type { Metrics } from '../observability/metrics';
import type { Backlog, Store } from './store';

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
