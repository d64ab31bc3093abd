/**
 * Alerts to people: the follower's reads and position, the stored alerts, each channel's sending.
 * One line per verb: under `alertsWrites` or `alertsReads` (see ../index.ts).
 */
import { alertChannels, openAlertChannel } from './alert-channels';
import { alertSources } from './alert-sources';
import { claimAlerts, finishAlerts } from './claim-alerts';
import { recordAlerts } from './record-alerts';

export const alertsWrites = {
  recordAlerts,
  openAlertChannel,
  claimAlerts,
  finishAlerts,
} as const;

export const alertsReads = {
  alertSources,
  alertChannels,
} as const;
