import { hostname } from 'node:os';
import type { Config } from '../config/env';
import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import type { AlertQueries } from '../store/store';
import { emailChannel, webhookChannel, type AlertChannel } from './alert-channels';
import { registerAlertMetrics } from './alert-metrics';
import { startAlerts, type Alerts } from './alerts';

type AlertConfig = Pick<Config, 'ALERT_WEBHOOK_URL' | 'ALERT_SMTP_URL' | 'ALERT_EMAIL_TO' | 'ALERT_EMAIL_FROM' | 'ALERT_LANGUAGE' | 'ADMIN_PUBLIC_URL' | 'LEDGER_DEFAULT_CURRENCY'>;

/**
 * The receiver's own address when ALERT_EMAIL_FROM is unset: a recipient's address as the sender
 * would make every alert look as if that person had sent it, and replies go to them.
 */
function defaultSender(host = hostname()): string {
  return `noti-receiver@${host}`;
}

/** The channels the settings name (none: null, and nothing runs). */
export function alertChannelsOf(config: AlertConfig): AlertChannel[] {
  const channels: AlertChannel[] = [];
  if (config.ALERT_WEBHOOK_URL) channels.push(webhookChannel(config.ALERT_WEBHOOK_URL));
  if (config.ALERT_SMTP_URL && config.ALERT_EMAIL_TO) {
    channels.push(emailChannel(config.ALERT_SMTP_URL, config.ALERT_EMAIL_TO, config.ALERT_EMAIL_FROM ?? defaultSender()));
  }
  return channels;
}

/** The service's alerts to people, as the settings ask; null when no channel is set. */
export function startConfiguredAlerts(deps: { config: AlertConfig; store: AlertQueries; logger: Logger; metrics: Metrics }): Alerts | null {
  const channels = alertChannelsOf(deps.config);
  if (channels.length === 0) return null;
  const { config, store, logger } = deps;
  deps.logger.info('alerts to people on', { channels: channels.map((c) => c.name), language: config.ALERT_LANGUAGE, links: config.ADMIN_PUBLIC_URL !== undefined });
  return startAlerts({
    store,
    channels,
    logger,
    metrics: registerAlertMetrics(deps.metrics, () => store.alertChannels()),
    message: { language: config.ALERT_LANGUAGE, publicUrl: config.ADMIN_PUBLIC_URL ?? null, defaultCurrency: config.LEDGER_DEFAULT_CURRENCY },
  });
}
