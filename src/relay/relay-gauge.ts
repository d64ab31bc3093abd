import { Gauge } from 'prom-client';
import type { Metrics } from '../observability/metrics';

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
