import { randomUUID } from 'node:crypto';
import { backoffDelay, type BackoffOptions } from '../backoff';
import type { Logger } from '../observability/logger';
import type { AlertQueries } from '../store/store';
import { WakeSignal } from '../wake-signal';
import { alertsFrom, type Alert } from './alert';
import type { AlertChannel } from './alert-channels';
import { alertMessage, type MessageOptions } from './alert-message';
import type { AlertMetrics } from './alert-metrics';

export interface AlertsOptions {
  store: AlertQueries;
  channels: readonly AlertChannel[];
  message: MessageOptions;
  logger: Logger;
  metrics?: AlertMetrics | null;
  /** How often the store is looked at (and due messages sent). */
  pollMs?: number;
  /** At most one message per channel per window: what opens meanwhile goes as one digest. */
  windowMs?: number;
  /** A send not answered by then failed (a hung receiver). */
  sendTimeoutMs?: number;
  backoff?: BackoffOptions;
  /** Alerts one message lists (it counts the rest). */
  listed?: number;
  now?: () => number;
}

export interface Alerts {
  /** Ends the loop; a send in flight is cut short and tried again by the next start (or another replica). */
  stop(): Promise<void>;
}

const SOURCE_PAGE = 200;
const POSITION_EVERY_MS = 10_000;

/**
 * Alerts to people, after the fact: a loop on its own timer reads what the store committed (the
 * ledger's events, the relay's dead events), stores the alerts it calls for with its position, and
 * sends each channel's due alerts as one message. Nothing here is on an ack's path, and what waits
 * for a slow or failing receiver waits in the database, never in memory. The first alert after a
 * quiet window goes at once; what opens within the window after a message goes as one digest when
 * the window ends.
 */
export function startAlerts(options: AlertsOptions): Alerts {
  const { store, logger } = options;
  const pollMs = options.pollMs ?? 1_000;
  const windowMs = options.windowMs ?? 60_000;
  const sendTimeoutMs = options.sendTimeoutMs ?? 10_000;
  const backoff = options.backoff ?? { baseMs: 5_000, maxMs: 5 * 60_000 };
  const listed = options.listed ?? 20;
  const now = options.now ?? Date.now;
  // A lease outlives the longest send, so another replica never sends the same message meanwhile.
  const leaseMs = sendTimeoutMs + 30_000;
  const owner = randomUUID();
  const signal = new WakeSignal();
  const stopping = new AbortController();
  const sending = new Map<string, Promise<void>>();
  let lastProblem = '';

  const problem = (what: string, error: unknown) => {
    const message = `${what}: ${(error as Error).message}`;
    // The same failure every poll is said once until it changes.
    if (message !== lastProblem) logger.warn('alerts: store not read; trying again', { error: message });
    lastProblem = message;
  };

  // Reads every poll; writes only to store alerts, or to move the position now and then past rows
  // that called for none, so an idle channel adds no commit beside the acks' each second.
  let positionWrittenMs = now();
  const collect = async () => {
    for (let page = 0; page < 10; page++) {
      const sources = await store.alertSources(SOURCE_PAGE);
      if (sources.to.inboxSeq === sources.from.inboxSeq && sources.to.attemptId === sources.from.attemptId) return;
      const alerts = alertsFrom(sources);
      if (alerts.length === 0 && now() - positionWrittenMs < POSITION_EVERY_MS) return;
      await store.recordAlerts(sources.from, sources.to, alerts, new Date(now()).toISOString());
      positionWrittenMs = now();
      if (sources.ledgerEvents.length < SOURCE_PAGE && sources.deadEvents.length < SOURCE_PAGE) return;
    }
  };

  /** Whether a claim could succeed (the claim's write checks again): a read, so a quiet channel costs no write. */
  const due = async (): Promise<Set<string>> => {
    const t = now();
    const states = await store.alertChannels();
    return new Set(states
      .filter((c) => c.pending > 0 && c.nextTryMs <= t && c.lastSentMs + windowMs <= t && (c.leaseOwner === null || c.leaseOwner === owner || c.leaseUntilMs <= t))
      .map((c) => c.channel));
  };

  const send = async (channel: AlertChannel) => {
    const claimed = await store.claimAlerts(channel.name, owner, { nowMs: now(), leaseMs, windowMs, limit: listed });
    if (!claimed) return;
    const alerts = claimed.alerts.map((a) => JSON.parse(a.json) as Alert);
    const message = alertMessage(alerts, claimed.total, options.message);
    try {
      await channel.send(message, AbortSignal.any([AbortSignal.timeout(sendTimeoutMs), stopping.signal]), sendTimeoutMs);
    } catch (error) {
      const retryInMs = stopping.signal.aborted ? 0 : backoffDelay(claimed.attempts + 1, backoff);
      options.metrics?.messages.inc({ channel: channel.name, outcome: 'failed' });
      logger.warn('alert not sent; trying again', { channel: channel.name, alerts: claimed.total, attempt: claimed.attempts + 1, retryInMs, error: (error as Error).message });
      await store.finishAlerts(channel.name, owner, { sent: false, error: (error as Error).message, nextTryMs: now() + retryInMs });
      return;
    }
    options.metrics?.messages.inc({ channel: channel.name, outcome: 'sent' });
    logger.info('alert sent', { channel: channel.name, alerts: claimed.total });
    await store.finishAlerts(channel.name, owner, { sent: true, through: claimed.through, nowMs: now() });
  };

  const opened = new Set<string>();
  const open = async () => {
    for (const channel of options.channels) {
      if (opened.has(channel.name)) continue;
      await store.openAlertChannel(channel.name);
      opened.add(channel.name);
    }
  };

  const loop = (async () => {
    while (!signal.stopped) {
      signal.reset();
      try {
        await open();
        await collect();
        lastProblem = '';
      } catch (error) {
        problem('alerts not collected', error);
      }
      const ready = await due().catch((error: unknown) => {
        problem('alert channels not read', error);
        return new Set<string>();
      });
      // Each channel on its own: a hung webhook never holds e-mail back.
      for (const channel of options.channels) {
        if (sending.has(channel.name) || !ready.has(channel.name)) continue;
        const run = send(channel)
          .catch((error: unknown) => problem(`${channel.name} alerts not claimed`, error))
          .finally(() => sending.delete(channel.name));
        sending.set(channel.name, run);
      }
      await signal.sleep(pollMs);
    }
  })();

  return {
    async stop() {
      signal.stop();
      stopping.abort();
      await loop;
      await Promise.all(sending.values());
    },
  };
}
