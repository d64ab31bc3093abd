import { Client, type ClientConfig } from 'pg';
import { LOCK_KIND, lockArgs } from './advisory-locks';

/** The channel record() notifies on commit, so the relay on another replica wakes at once. */
export const NEW_EVENTS_CHANNEL = 'payment_noti_outbox';

/**
 * The one-relay-at-a-time lock (and, with `LOCK_KIND.projector`, the one-projector-at-a-time lock): a session-level advisory lock held on a dedicated connection
 * (never a pooled one, which would carry the lock back into the pool). If this process dies or
 * its connection drops, PostgreSQL ends the session and frees the lock, and another replica's
 * next `holds()` takes it. The same connection LISTENs for other replicas' new events.
 */
export class RelayLock {
  private client: Client | null = null;
  private held = false;
  private pending: Promise<boolean> | null = null;
  private closed = false;

  constructor(
    private readonly config: ClientConfig,
    private readonly onNotification: () => void,
    private readonly onBackgroundError: (error: Error) => void,
    private readonly kind: number = LOCK_KIND.relay,
    /** LISTEN for other replicas' new events on this connection (one such connection per process is enough). */
    private readonly listen = true,
  ) {}

  /** True while this process holds the lock; tries to take it when free. Never throws. */
  holds(): Promise<boolean> {
    // The relay asks once per pass; a second caller shares the round trip instead of racing it.
    this.pending ??= this.check().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pending?.catch(() => undefined);
    await this.drop();
  }

  private async check(): Promise<boolean> {
    if (this.closed) return false;
    try {
      const client = this.client ?? (await this.connect());
      if (this.held) {
        // A round trip proves the session (and so the lock) is still ours before the relay
        // publishes on its strength; a silently dead connection fails here within query_timeout.
        await client.query('SELECT 1');
      } else {
        const { rows } = await client.query<{ taken: boolean }>(`SELECT pg_try_advisory_lock(${lockArgs(this.kind)}) AS taken`);
        this.held = rows[0]?.taken === true;
      }
      return this.held;
    } catch (error) {
      this.onBackgroundError(error as Error);
      // Not awaited: ending a connection on a dead network can take as long as the timeout did.
      void this.drop();
      return false;
    }
  }

  private async connect(): Promise<Client> {
    const client = new Client(this.config);
    client.on('error', (error) => {
      // The server has ended the session, so the lock is gone; the next holds() reconnects.
      this.onBackgroundError(error);
      void this.drop(client);
    });
    client.on('notification', () => this.onNotification());
    this.client = client;
    try {
      await client.connect();
      // A holder whose host vanishes without closing its socket would keep the lock, and so stop
      // every relay, for the kernel's default two hours of keepalive silence; with these the
      // server drops the session, and frees the lock, about 11 s after the peer went quiet.
      await client.query('SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3');
      if (this.listen) await client.query(`LISTEN ${NEW_EVENTS_CHANNEL}`);
    } catch (error) {
      void this.drop(client);
      throw error;
    }
    return client;
  }

  /** Forgets `client` (the current one by default); a late event from an old client leaves a newer one alone. */
  private async drop(client = this.client): Promise<void> {
    if (client && client === this.client) {
      this.client = null;
      this.held = false;
    }
    if (client) await client.end().catch(() => undefined);
  }
}
