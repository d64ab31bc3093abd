import type { Command } from 'commander';
import type { Config } from '../../config/env';
import type { Backlog, RejectionRow } from '../../store/store';
import { cliConfig, globalOptions, positiveInt, print, withStore, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { formatFields } from '../table';
import { withLedger } from '../with-ledger';
import { kstTime } from '../../console/format';
import { adminUrl } from '../../config/local-urls';
import type { StoreIdentity } from '../../store/store-location';
import { isOtherStore, otherStoreWarning, readReadiness, storeText, type Readiness, type ReadyzBody, type ReceiverStore } from '../receiver-store-check';
import { requireReceiverDatabase } from '../require-database';

const READYZ_TIMEOUT_MS = 3_000;
const WAIT_POLL_MS = 500;

interface StoreView {
  ok: boolean;
  /** The database this command read: compared with the receiver's, since `.env` may name another. */
  identity: StoreIdentity | null;
  error: string | null;
  backlog: Backlog | null;
  lastRejection: Omit<RejectionRow, 'rawBody'> | null;
  /** Open payment discrepancies per kind. */
  openDiscrepancies: Record<string, number> | null;
}

/**
 * One screen for the first minute of an incident: is the running receiver ready (its admin
 * /readyz), and what does the database hold (backlog, its age, dead events, the last
 * rejection, open payment discrepancies). Both halves are read independently, so either can be
 * shown while the other is down; and whether they are the same database (exit 4 when not).
 */
export function registerStatus(program: Command, io: CliIo): void {
  program
    .command('status')
    .description("the receiver's readiness (admin /readyz), backlog, oldest pending, dead events, the last rejection and open discrepancies")
    .option('--admin-url <url>', 'the admin listener (default: http://ADMIN_HOST:ADMIN_PORT)')
    .option('--wait <seconds>', 'first wait up to this long for the receiver to answer ready (e.g. just after starting it)', positiveInt('--wait', 3600))
    .action(async (options: { adminUrl?: string; wait?: number }, command: Command) => {
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      const admin = options.adminUrl ?? adminUrl(config);
      if (options.wait) await untilReady(admin, options.wait * 1000);
      const [readiness, store] = await Promise.all([readReadiness(admin, READYZ_TIMEOUT_MS), readStore(config)]);
      const receiverStore = readiness.body?.store;
      const otherStore = store.identity !== null && isOtherStore(store.identity, receiverStore);
      print(io, global, { receiver: readiness, store, otherStore }, () => formatStatus(readiness, store, otherStore));
      if (!store.ok) throw new CliFailure('', EXIT.storeUnavailable);
      if (otherStore) throw new CliFailure(otherStoreWarning(store.identity!, receiverStore!, readiness.url), EXIT.otherStore);
      if (!readiness.ready) throw new CliFailure('', EXIT.notFound);
    });
}

/** Asks every half second until the receiver answers ready or `ms` have passed; the screen then says which. */
async function untilReady(admin: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if ((await readReadiness(admin, Math.min(READYZ_TIMEOUT_MS, Math.max(1, deadline - Date.now())))).ready) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(WAIT_POLL_MS, Math.max(0, deadline - Date.now()))));
  }
}

async function readStore(config: Config): Promise<StoreView> {
  let identity: StoreIdentity | null = null;
  try {
    identity = await requireReceiverDatabase(config.DATABASE_URL);
    const found = identity;
    return await withStore(config, async (store) => {
      const backlog = await store.backlog(Date.now());
      const [latest] = await store.listRejections(1);
      const lastRejection = latest ? (({ rawBody: _raw, ...rest }) => rest)(latest) : null;
      return { ok: true, identity: found, error: null, backlog, lastRejection };
      // status only reads: it applies nothing of the ledger (the service's projector does).
    }).then(async (view) => ({ ...view, openDiscrepancies: await withLedger(config, (ledger) => ledger.openDiscrepancyCounts(), { projector: false }) }));
  } catch (error) {
    if (error instanceof CliFailure && error.code === EXIT.storeUnavailable) return { ok: false, identity, error: error.message, backlog: null, lastRejection: null, openDiscrepancies: null };
    throw error;
  }
}

function formatStatus(readiness: Readiness, store: StoreView, otherStore: boolean): string {
  const publisher = readiness.body?.publisher;
  const rejection = store.lastRejection;
  const backlog = store.backlog;
  return formatFields([
    ['receiver', readiness.reachable ? `${readiness.body?.status ?? 'answered'} (${readiness.url})` : `unreachable: ${readiness.error} (${readiness.url})`],
    ['gateway listener', readiness.body ? listenerLine(readiness.body.ingest) : null],
    ['store', readiness.body?.store ? receiverStoreLine(readiness.body.store) : null],
    ['read from', store.identity ? readFromLine(store.identity, readiness, otherStore) : null],
    [
      'publisher',
      publisher
        ? `${publisher.kind} ${publisher.connected ? 'connected' : `disconnected: ${publisher.detail ?? ''}`}; last delivery ${publisher.lastDeliveredAt ? kstTime(publisher.lastDeliveredAt) : 'none yet'}` +
          (publisher.lastError ? `; last error ${publisher.lastError}` : '')
        : null,
    ],
    ['relay', relayLine(readiness.body?.relay)],
    ['backlog', backlog ? `${backlog.pending} pending` : `unknown: ${store.error}`],
    ['oldest pending', backlog ? (backlog.oldestPendingAgeMs === null ? 'none' : age(backlog.oldestPendingAgeMs)) : null],
    ['dead events', backlog ? (backlog.dead === 0 ? '0' : `${backlog.dead} (see "events list --status dead", then "events requeue --dead")`) : null],
    [
      'last rejection',
      rejection ? `#${rejection.id} ${kstTime(rejection.receivedAt)} HTTP ${rejection.httpStatus} from ${rejection.sourceIp}: ${rejection.reason}` : store.ok ? 'none' : null,
    ],
    ['open discrepancies', store.openDiscrepancies ? discrepanciesLine(store.openDiscrepancies) : null],
  ]);
}

function receiverStoreLine(store: ReceiverStore): string {
  const state = `${store.kind} ${store.ok ? 'ok' : `DOWN: ${store.error}`}`;
  if (store.location) return `${state}, ${storeText(store)}`;
  return store.id ? `${state} (store ${store.id.slice(0, 8)})` : state;
}

/** Says whose data the lines below it are: the receiver's, or (loudly) another database's. */
function readFromLine(identity: StoreIdentity, readiness: Readiness, otherStore: boolean): string {
  if (otherStore) return `${storeText(identity)}: NOT THE RECEIVER'S STORE; the lines below describe this one, not the receiver's`;
  return readiness.body?.store?.id ? `${storeText(identity)}, the receiver's store` : storeText(identity);
}

function discrepanciesLine(counts: Record<string, number>): string {
  const kinds = Object.entries(counts).filter(([, n]) => n > 0).sort(([a], [b]) => (a < b ? -1 : 1));
  const total = kinds.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return '0';
  return `${total} (${kinds.map(([kind, n]) => `${kind} ${n}`).join(', ')}; see "discrepancies list")`;
}

/** The gateway listener's thread: whether its loop answers and how late it runs. */
function listenerLine(ingest: ReadyzBody['ingest']): string | null {
  if (ingest === undefined) return null;
  if (ingest === null) return 'none on this replica (ROLE=operator)';
  if (!ingest.answering) return 'NOT ANSWERING: its event loop did not reply within a second; acks are not being answered';
  return ingest.loopDelayP99Ms === null || ingest.loopDelayP99Ms === undefined
    ? 'answering'
    : `answering; event loop delay p99 ${ingest.loopDelayP99Ms.toFixed(1)} ms`;
}

function relayLine(relay: ReadyzBody['relay']): string | null {
  if (!relay) return null;
  if (!relay.running) return 'stopped';
  return relay.holdsLock ? 'running on this replica' : 'standby (another replica holds the relay lock)';
}

function age(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}
