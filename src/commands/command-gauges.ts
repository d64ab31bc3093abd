import { Gauge } from 'prom-client';
import { scrapedGauge, type Metrics } from '../observability/metrics';

/** What the command gauges read; the command store provides it. */
export interface CommandCounts {
  countByState(): Promise<Array<{ kind: string; state: string; count: number }>>;
  countWorkingSince(before: string): Promise<number>;
}

/**
 * Alert-worthy command gauges, read from the store at scrape time: an approval whose net-cancel
 * failed may have charged a customer, and a command pending for long means the gateway or the
 * worker is stuck.
 */
export function registerCommandGauges(metrics: Metrics, commands: CommandCounts, pendingAlertMs: number): void {
  new Gauge({
    name: 'noti_receiver_commands',
    help: 'Stored gateway commands by kind and state (all replicas, survives restarts)',
    labelNames: ['kind', 'state'] as const,
    registers: [metrics.registry],
    async collect() {
      const rows = await commands.countByState().catch(() => null);
      if (!rows) return;
      this.reset();
      for (const row of rows) this.set({ kind: row.kind, state: row.state }, row.count);
    },
  });
  scrapedGauge(metrics, 'noti_receiver_commands_net_cancel_failed',
    'VAN approvals whose net-cancel failed: an approval may stand at the gateway; reconcile by hand',
    async () => (await commands.countByState()).filter((r) => r.state === 'net_cancel_failed').reduce((sum, r) => sum + r.count, 0));
  scrapedGauge(metrics, 'noti_receiver_commands_long_pending',
    'Commands still being resent or net-cancelled longer than COMMAND_PENDING_ALERT_MS after creation',
    () => commands.countWorkingSince(new Date(Date.now() - pendingAlertMs).toISOString()));
}
