import express, { type Express } from 'express';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import { withSignInRefusals, type ConsoleDeps } from '../console/console-deps';
import { consoleErrorHandler } from '../console/console-errors';
import { consoleRouter } from '../console/console-router';
import { requireKnownHost } from '../console/require-known-host';
import { requireSession } from '../console/require-session';
import { securityHeaders } from '../console/security-headers';
import { publisherReadiness, relayReadiness } from '../relay/publisher-readiness';
import type { Metrics } from '../observability/metrics';
import type { Publisher } from '../publishers/publisher';
import type { Relay } from '../relay/relay';
import type { LedgerStore } from '../ledger/projector/ledger-store';
import type { Store } from '../store/store';
import type { LedgerProjector } from '../ledger/projector/ledger-projector';
import type { IngestHealth } from '../ingest/ingest-thread';

export interface AdminDeps {
  store: Store;
  publisher: Publisher;
  relay: Relay | null;
  metrics: Metrics;
  isShuttingDown: () => boolean;
  /** The operator console; null leaves the listener to probes and metrics only (tests of those). */
  console?: ConsoleDeps | null;
  /** The payment ledger's lag, reported by /readyz (never failed on); absent, /readyz says nothing of it. */
  ledger?: Pick<LedgerStore, 'lag' | 'projector'> | null;
  /** DATABASE_URL as it may be shown (storeLocation): /readyz names the store, so the CLI can tell it reads another. */
  storeLocation?: string | null;
  /** The gateway listener's thread, where this process runs it (ROLE all or ingest). */
  ingest?: IngestView | null;
}

/** What the admin listener reads of the gateway listener's thread. */
export interface IngestView {
  health(): Promise<IngestHealth>;
  /** /metrics with the thread's own metrics merged into `own`; null when the thread did not answer in time. */
  render(own: Array<MetricObjectWithValues<MetricValue<string>>>): Promise<string | null>;
}

/**
 * Health, readiness and metrics on their own listener (127.0.0.1 by default), never on the
 * notification port that faces the gateway. Probes and scrapers need no token; the operator
 * console and anything else on this listener need a console session.
 */
export function createAdminApp(deps: AdminDeps): Express {
  const { store, publisher, relay, metrics } = deps;
  const app = express();
  app.disable('x-powered-by');

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  // Ready means "acks work": that needs the store only. A down queue grows the backlog but
  // must not take the receiver out of the load balancer, so it is reported, not failed on.
  app.get('/readyz', async (_req, res) => {
    // Which database this receiver serves: its id (the same however a URL spells it) and where it is.
    const identity = { kind: store.kind, location: deps.storeLocation ?? null };
    let storeStatus: { ok: boolean; kind: string; id?: string | null; location: string | null; error?: string };
    let backlog = null;
    let ledgerLag = null;
    // Asked first and answered meanwhile: the listener's thread replies within a second or is not answering.
    const ingestHealth = deps.ingest?.health() ?? Promise.resolve(null);
    try {
      await store.ping();
      const id = await store.storeId();
      backlog = await store.backlog(Date.now());
      ledgerLag = deps.ledger ? await deps.ledger.lag() : null;
      storeStatus = { ok: true, ...identity, id };
    } catch (error) {
      storeStatus = { ok: false, ...identity, error: (error as Error).message };
    }
    const ingest = await ingestHealth;
    // A listener whose loop does not answer is not acking either: out of the load balancer.
    const ready = storeStatus.ok && !deps.isShuttingDown() && (ingest?.answering ?? true);
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not ready',
      shuttingDown: deps.isShuttingDown(),
      store: storeStatus,
      // Null where this process runs no gateway listener (ROLE=operator).
      ingest: ingest && { answering: ingest.answering, loopDelayP99Ms: ingest.loopDelayP99Ms },
      // The publisher is judged by its own errors only; a pass the store failed is relay.storeError.
      publisher: publisherReadiness(publisher, relay),
      relay: relayReadiness(relay),
      backlog: backlog && {
        pending: backlog.pending,
        dead: backlog.dead,
        oldestPendingAgeSeconds: backlog.oldestPendingAgeMs === null ? null : backlog.oldestPendingAgeMs / 1000,
      },
      // Reported, not failed on: acks never wait for the ledger, so a lagging ledger is no reason to
      // take the receiver out of the load balancer (reads of an order answer 503 meanwhile).
      ledger: ledgerLag && { behind: ledgerLag.inputs, lagSeconds: ledgerLag.seconds, projector: projectorReadiness(deps.ledger?.projector ?? null) },
    });
  });

  app.get('/metrics', async (_req, res) => {
    const merged = deps.ingest ? await deps.ingest.render(await metrics.registry.getMetricsAsJSON()) : null;
    res.type(metrics.registry.contentType).send(merged ?? (await metrics.registry.metrics()));
  });

  if (deps.console) {
    const consoleDeps = withSignInRefusals(deps.console, (reason) => metrics.consoleSignInRefusals.inc({ reason }));
    // After the probes and /metrics, which answer any Host (a load balancer names the pod's IP).
    app.use(securityHeaders);
    app.use(requireKnownHost(consoleDeps.config));
    app.get('/', (_req, res) => res.redirect(303, '/console'));
    app.use('/console', consoleRouter({ deliveryReadiness: () => ({ publisher: publisherReadiness(publisher, relay), relay: relayReadiness(relay) }), ...consoleDeps }));
    app.use(requireSession(consoleDeps));
  }
  app.use((_req, res) => res.status(404).json({ error: 'not found' }));
  if (deps.console) app.use(consoleErrorHandler(deps.console.logger));
  return app;
}

/** Whether this replica runs the projector (another replica may), and its last failure. */
function projectorReadiness(projector: LedgerProjector | null): { here: boolean; lastError: string | null } {
  const state = projector?.state();
  return { here: state?.holdsLock ?? false, lastError: state?.lastError ?? null };
}
