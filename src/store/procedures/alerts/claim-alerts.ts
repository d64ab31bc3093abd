import type { AlertSendResult, ClaimedAlerts, ClaimRules } from '../../types/alerts';
import { all, dialect, get, run, type Procedure } from '../procedure';

interface ChannelRow {
  sent_through: number | string;
  last_sent_ms: number | string;
  attempts: number | string;
  next_try_ms: number | string;
  lease_owner: string | null;
  lease_until_ms: number | string;
}

/**
 * The channel's next message, taken under a lease: due when something waits, the digest window
 * since its last message has passed, the backoff after a failure has passed, and no other process
 * holds a live lease. One message covers every alert waiting (the first `limit` listed), so what
 * opens while a receiver is down or slow waits in the table, never in memory.
 */
export function* claimAlerts(channel: string, owner: string, rules: ClaimRules): Procedure<ClaimedAlerts | null> {
  // PostgreSQL: two replicas' claims of one channel take turns on its row.
  const lock = (yield* dialect()) === 'postgres' ? ' FOR UPDATE' : '';
  const row = yield* get<ChannelRow>(`SELECT sent_through, last_sent_ms, attempts, next_try_ms, lease_owner, lease_until_ms
    FROM alert_channels WHERE channel = ?${lock}`, channel);
  if (!row) return null;
  const { nowMs } = rules;
  if (row.lease_owner !== null && row.lease_owner !== owner && Number(row.lease_until_ms) > nowMs) return null;
  if (Number(row.next_try_ms) > nowMs || Number(row.last_sent_ms) + rules.windowMs > nowMs) return null;
  const sentThrough = Number(row.sent_through);
  const waiting = yield* get<{ total: number | string; through: number | string | null }>(
    'SELECT COUNT(*) AS total, MAX(id) AS through FROM alerts WHERE id > ?', sentThrough,
  );
  const total = Number(waiting?.total ?? 0);
  if (total === 0) return null;
  const alerts = yield* all<{ id: number | string; alert_json: string }>('SELECT id, alert_json FROM alerts WHERE id > ? ORDER BY id LIMIT ?', sentThrough, rules.limit);
  yield* run('UPDATE alert_channels SET lease_owner = ?, lease_until_ms = ? WHERE channel = ?', owner, nowMs + rules.leaseMs, channel);
  return { alerts: alerts.map((a) => ({ id: Number(a.id), json: a.alert_json })), total, through: Number(waiting!.through), attempts: Number(row.attempts) };
}

/** A send's outcome, by the lease's holder only (one that lost its lease to a takeover records nothing). */
export function* finishAlerts(channel: string, owner: string, result: AlertSendResult): Procedure<void> {
  if (result.sent) {
    yield* run(`UPDATE alert_channels SET sent_through = ?, last_sent_ms = ?, attempts = 0, next_try_ms = 0, last_error = NULL,
      lease_owner = NULL, lease_until_ms = 0 WHERE channel = ? AND lease_owner = ?`, result.through, result.nowMs, channel, owner);
    return;
  }
  yield* run(`UPDATE alert_channels SET attempts = attempts + 1, next_try_ms = ?, last_error = ?, lease_owner = NULL, lease_until_ms = 0
    WHERE channel = ? AND lease_owner = ?`, result.nextTryMs, result.error, channel, owner);
}
