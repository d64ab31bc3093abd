import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { isNotiType, type NotiType } from '../notifications/event-types';
import type { Backlog, Store } from '../store/store';
import { DISCREPANCY_KINDS } from '../ledger/order-record';
import type { OpenDiscrepancyCount } from '../store/ledger-store';

export type NotificationOutcome = 'accepted' | 'duplicate' | 'conflict' | 'rejected' | 'forbidden' | 'unavailable';

/**
 * The values a `noti_type` label can take: the gateway's codes, `invalid` for a body that
 * named anything else, `unknown` when no body was read (refused source, storage down).
 * A label value taken from a body would carry whatever an invalid body holds (card numbers,
 * names) into /metrics, and every distinct value is a new series held in memory for ever.
 */
export type NotiTypeLabel = NotiType | 'invalid' | 'unknown';

export function notiTypeLabel(value: unknown): NotiTypeLabel {
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

/** Every metric the receiver exports, on its own registry so tests and replicas never share state. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'noti_receiver_process_' });
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
/**
 * One number read from the database at each scrape (every replica reads the same shared figure). A
 * read that fails leaves the last value: a scrape must never fail because the database is slow.
 */
function scrapedGauge(metrics: Metrics, name: string, help: string, read: () => Promise<number | null>): void {
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
