import type { Command } from 'commander';
import { adminUrl } from '../config/local-urls';
import type { StoreIdentity } from '../store/store-location';
import { cliConfig, globalOptions, type CliIo } from './cli-context';
import { requireReceiverDatabase } from './require-database';

/** What the receiver's /readyz says of its store (older receivers send only ok and kind). */
export interface ReceiverStore {
  ok?: boolean;
  kind?: string;
  id?: string | null;
  location?: string | null;
  error?: string;
}

export interface ReadyzBody {
  status?: string;
  store?: ReceiverStore;
  publisher?: { kind?: string; connected?: boolean; detail?: string; lastError?: string | null; lastDeliveredAt?: string | null };
  relay?: { running?: boolean; holdsLock?: boolean } | null;
  /** Null on a replica without a gateway listener (ROLE=operator); absent from older receivers. */
  ingest?: { answering?: boolean; loopDelayP99Ms?: number | null } | null;
}

export interface Readiness {
  url: string;
  reachable: boolean;
  ready: boolean;
  /** The /readyz body as the receiver sent it, or the reason it could not be read. */
  body: ReadyzBody | null;
  error: string | null;
}

/** How long a command other than `status` waits for the receiver before going on without comparing stores. */
const QUICK_READYZ_TIMEOUT_MS = 1_000;

export async function readReadiness(admin: string, timeoutMs: number): Promise<Readiness> {
  const url = new URL('/readyz', admin).toString();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await response.json().catch(() => null)) as ReadyzBody | null;
    return { url, reachable: true, ready: response.status === 200, body, error: null };
  } catch (error) {
    // fetch says only "fetch failed"; the cause (ECONNREFUSED, a time-out) is what an operator needs.
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { url, reachable: false, ready: false, body: null, error: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}

/** `sqlite:/srv/receiver.db (store 3fa2c1d0)`: where, and the first digits of the id, as git shows a commit. */
export function storeText(store: { kind?: string; location?: string | null; id?: string | null }): string {
  const where = store.location ?? store.kind ?? 'unknown store';
  return store.id ? `${where} (store ${store.id.slice(0, 8)})` : where;
}

/**
 * True when the receiver serves another database than `own`: another kind, or another id (the id
 * is the same however a URL or path spells the database). Without both ids nothing is claimed.
 */
export function isOtherStore(own: StoreIdentity, receiver: ReceiverStore | undefined): boolean {
  if (!receiver?.kind) return false;
  if (receiver.kind !== own.kind) return true;
  return Boolean(receiver.id && own.id && receiver.id !== own.id);
}

export function otherStoreWarning(own: StoreIdentity, receiver: ReceiverStore, readyzUrl: string): string {
  return (
    `WARNING: NOT THE RECEIVER'S STORE. The receiver (${readyzUrl}) serves ${storeText(receiver)}; ` +
    `this command reads ${storeText(own)}. Point DATABASE_URL or --database-url at the receiver's store.`
  );
}

/**
 * Before a command that reads the store: names the store on stderr (stdout stays the command's,
 * for scripts), and warns loudly when the running receiver (ADMIN_HOST:ADMIN_PORT) serves another,
 * e.g. `.env` names a SQLite file while the receiver was started with a PostgreSQL DATABASE_URL.
 * A receiver that does not answer is not compared (`status` says it is unreachable).
 */
export async function announceStore(io: CliIo, command: Command): Promise<void> {
  const config = cliConfig(io, globalOptions(command));
  const own = await requireReceiverDatabase(config.DATABASE_URL);
  io.stderr(`noti-receiver: reading ${storeText(own)}\n`);
  const readiness = await readReadiness(adminUrl(config), QUICK_READYZ_TIMEOUT_MS);
  const receiver = readiness.body?.store;
  if (receiver && isOtherStore(own, receiver)) io.stderr(`noti-receiver: ${otherStoreWarning(own, receiver, readiness.url)}\n`);
}
