import type { Command } from 'commander';
import type { Config } from '../../config/env';
import type { Backlog, RejectionRow } from '../../store/store';
import { cliConfig, globalOptions, print, withStore, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../exit-codes';
import { formatFields } from '../table';
import { withLedger } from '../with-ledger';
import { kstTime } from '../../console/format';

const READYZ_TIMEOUT_MS = 3_000;

interface Readiness {
  url: string;
  reachable: boolean;
  ready: boolean;
  /** The /readyz body as the receiver sent it, or the reason it could not be read. */
  body: ReadyzBody | null;
  error: string | null;
}

interface ReadyzBody {
  status?: string;
  store?: { ok?: boolean; kind?: string; error?: string };
  publisher?: { kind?: string; connected?: boolean; detail?: string; lastError?: string | null; lastDeliveredAt?: string | null };
  relay?: { running?: boolean; holdsLock?: boolean } | null;
}

interface StoreView {
  ok: boolean;
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
 * shown while the other is down.
 */
export function registerStatus(program: Command, io: CliIo): void {
  program
    .command('status')
    .description("the receiver's readiness (admin /readyz), backlog, oldest pending, dead events, the last rejection and open discrepancies")
    .option('--admin-url <url>', 'the admin listener (default: http://ADMIN_HOST:ADMIN_PORT)')
    .action(async (options: { adminUrl?: string }, command: Command) => {
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      const [readiness, store] = await Promise.all([readReadiness(options.adminUrl ?? adminUrlOf(config)), readStore(config)]);
      print(io, global, { receiver: readiness, store }, () => formatStatus(readiness, store));
      if (!store.ok) throw new CliFailure('', EXIT.storeUnavailable);
      if (!readiness.ready) throw new CliFailure('', EXIT.notFound);
    });
}

function adminUrlOf(config: Config): string {
  // 0.0.0.0 and :: mean "every interface" to a listener, not an address to call.
  const host = ['0.0.0.0', '::', ''].includes(config.ADMIN_HOST) ? '127.0.0.1' : config.ADMIN_HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.ADMIN_PORT}`;
}

async function readReadiness(adminUrl: string): Promise<Readiness> {
  const url = new URL('/readyz', adminUrl).toString();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(READYZ_TIMEOUT_MS) });
    const body = (await response.json().catch(() => null)) as ReadyzBody | null;
    return { url, reachable: true, ready: response.status === 200, body, error: null };
  } catch (error) {
    // fetch says only "fetch failed"; the cause (ECONNREFUSED, a time-out) is what an operator needs.
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { url, reachable: false, ready: false, body: null, error: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}

async function readStore(config: Config): Promise<StoreView> {
  try {
    return await withStore(config, async (store) => {
      const backlog = await store.backlog(Date.now());
      const [latest] = await store.listRejections(1);
      const lastRejection = latest ? (({ rawBody: _raw, ...rest }) => rest)(latest) : null;
      return { ok: true, error: null, backlog, lastRejection };
      // status only reads: it applies nothing of the ledger (the service's projector does).
    }).then(async (view) => ({ ...view, openDiscrepancies: await withLedger(config, (ledger) => ledger.openDiscrepancyCounts(), { projector: false }) }));
  } catch (error) {
    if (error instanceof CliFailure && error.code === EXIT.storeUnavailable) return { ok: false, error: error.message, backlog: null, lastRejection: null, openDiscrepancies: null };
    throw error;
  }
}

function formatStatus(readiness: Readiness, store: StoreView): string {
  const publisher = readiness.body?.publisher;
  const rejection = store.lastRejection;
  const backlog = store.backlog;
  return formatFields([
    ['receiver', readiness.reachable ? `${readiness.body?.status ?? 'answered'} (${readiness.url})` : `unreachable: ${readiness.error} (${readiness.url})`],
    ['store', readiness.body?.store ? `${readiness.body.store.kind} ${readiness.body.store.ok ? 'ok' : `DOWN: ${readiness.body.store.error}`}` : null],
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

function discrepanciesLine(counts: Record<string, number>): string {
  const kinds = Object.entries(counts).filter(([, n]) => n > 0).sort(([a], [b]) => (a < b ? -1 : 1));
  const total = kinds.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return '0';
  return `${total} (${kinds.map(([kind, n]) => `${kind} ${n}`).join(', ')}; see "discrepancies list")`;
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
