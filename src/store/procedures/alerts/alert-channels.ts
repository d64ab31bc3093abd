import type { AlertChannelState } from '../../types/alerts';
import { all, run, type Procedure } from '../procedure';

/** A channel starts after the alerts stored before it was configured: they were not its news. */
export function* openAlertChannel(channel: string): Procedure<void> {
  // `WHERE true`: SQLite would read ON CONFLICT after a bare FROM as a join's.
  yield* run(`INSERT INTO alert_channels (channel, sent_through) SELECT ?, COALESCE(MAX(id), 0) FROM alerts WHERE true
    ON CONFLICT (channel) DO NOTHING`, channel);
}

export function* alertChannels(): Procedure<AlertChannelState[]> {
  const rows = yield* all<{
    channel: string; pending: number | string; attempts: number | string; last_error: string | null;
    last_sent_ms: number | string; next_try_ms: number | string; lease_owner: string | null; lease_until_ms: number | string;
  }>(
    `SELECT c.channel, (SELECT COUNT(*) FROM alerts a WHERE a.id > c.sent_through) AS pending, c.attempts, c.last_error,
       c.last_sent_ms, c.next_try_ms, c.lease_owner, c.lease_until_ms
     FROM alert_channels c ORDER BY c.channel`,
  );
  return rows.map((r) => ({
    channel: r.channel, pending: Number(r.pending), attempts: Number(r.attempts), lastError: r.last_error,
    lastSentMs: Number(r.last_sent_ms), nextTryMs: Number(r.next_try_ms), leaseOwner: r.lease_owner, leaseUntilMs: Number(r.lease_until_ms),
  }));
}
