import { Gauge } from 'prom-client';
import { DISCREPANCY_KINDS } from '../fold/order-record';
import { scrapedGauge, type Metrics } from '../../observability/metrics';
import type { OpenDiscrepancyCount } from './ledger-store';

/**
 * Open discrepancies per kind, every kind always present (0 when none) so an alert on `> 0` and a
 * dashboard see each; `simulated` tells the simulator's made-up orders (which the alert ignores)
 * from real ones. One count of the open ones' partial index per scrape.
 */
export function registerLedgerGauge(
  metrics: Metrics,
  ledger: { openDiscrepancyCountsByOrigin(): Promise<OpenDiscrepancyCount[]>; lag?(): Promise<{ inputs: number; seconds: number }>; ledgerErrorCount?(): Promise<number> },
): void {
  if (ledger.lag) {
    const lag = ledger.lag.bind(ledger);
    scrapedGauge(metrics, 'noti_receiver_ledger_lag_seconds',
      "How long the oldest stored input the ledger's projector has not applied has waited (0 when none waits); reads of an order wait for it, up to 2 s",
      async () => (await lag()).seconds);
  }
  if (ledger.ledgerErrorCount) {
    scrapedGauge(metrics, 'noti_receiver_ledger_error_orders',
      "Orders whose inputs the ledger could not apply (status ledger_error): each shows its error; fix the cause, then run 'noti-receiver ledger rebuild'",
      ledger.ledgerErrorCount.bind(ledger));
  }
  new Gauge({
    name: 'noti_receiver_ledger_discrepancies_open',
    help: 'Open payment-ledger discrepancies by kind (all replicas): a payment that differs, a double payment, a failed refund; resolve each with a note. simulated="true": orders made up by the simulator',
    labelNames: ['kind', 'simulated'] as const,
    registers: [metrics.registry],
    async collect() {
      const counts = await ledger.openDiscrepancyCountsByOrigin().catch(() => null);
      if (!counts) return;
      for (const kind of DISCREPANCY_KINDS) {
        for (const simulated of [false, true]) {
          const count = counts.find((c) => c.kind === kind && c.simulated === simulated)?.count ?? 0;
          this.set({ kind, simulated: String(simulated) }, count);
        }
      }
    },
  });
}
