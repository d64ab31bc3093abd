import { Counter, Gauge } from 'prom-client';
import type { Metrics } from '../observability/metrics';
import type { AlertChannelState } from '../store/store';

export interface AlertMetrics {
  messages: Counter<'channel' | 'outcome'>;
}

/**
 * Messages sent and failed per channel, and the alerts waiting per channel (all replicas: read from
 * the database at each scrape), so a silent chat channel is itself seen on /metrics.
 */
export function registerAlertMetrics(metrics: Metrics, channels: () => Promise<AlertChannelState[]>): AlertMetrics {
  new Gauge({
    name: 'noti_receiver_alerts_pending',
    help: 'Alerts to people stored and not yet sent, by channel (webhook, email); stays above 0 while a channel fails',
    labelNames: ['channel'] as const,
    registers: [metrics.registry],
    async collect() {
      const states = await channels().catch(() => null);
      for (const state of states ?? []) this.set({ channel: state.channel }, state.pending);
    },
  });
  return {
    messages: new Counter({
      name: 'noti_receiver_alert_messages_total',
      help: 'Alert messages to people, by channel and outcome (sent, failed: retried with backoff)',
      labelNames: ['channel', 'outcome'] as const,
      registers: [metrics.registry],
    }),
  };
}
