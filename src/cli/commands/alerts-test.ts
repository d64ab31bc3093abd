import type { Command } from 'commander';
import { alertChannelsOf } from '../../alerts/alerts-from-config';
import { sendTestAlert, testAlertMessage } from '../../alerts/test-alert';
import { CliFailure, EXIT } from '../../exit-codes';
import { cliConfig, globalOptions, positiveInt, print, type CliIo } from '../cli-context';

const DEFAULT_TIMEOUT_S = 10;

/**
 * `alerts test`: one message to each channel the settings name (ALERT_WEBHOOK_URL, ALERT_SMTP_URL
 * with ALERT_EMAIL_TO), and what each answered. The service's own alerts come only from the
 * ledger's discrepancies and given-up events, so this is how an operator sees a channel work.
 */
export function registerAlertsTest(alerts: Command, io: CliIo): void {
  alerts
    .command('test')
    .description('send one test message to each configured alert channel and print what each answered')
    .option('--timeout <seconds>', `how long each channel may take to answer (default ${DEFAULT_TIMEOUT_S})`, positiveInt('--timeout', 120))
    .action(async (options: { timeout?: number }, command: Command) => {
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      const channels = alertChannelsOf(config);
      if (channels.length === 0) {
        throw new CliFailure('no alert channel is set: set ALERT_WEBHOOK_URL, or ALERT_SMTP_URL and ALERT_EMAIL_TO', EXIT.usage);
      }
      const answers = await sendTestAlert(channels, testAlertMessage(config.ALERT_LANGUAGE, new Date()), (options.timeout ?? DEFAULT_TIMEOUT_S) * 1000);
      print(io, global, answers, () => answers.map((a) => `${a.channel}: ${a.ok ? 'sent' : 'failed'} (${a.answer})`).join('\n'));
      if (answers.some((a) => !a.ok)) throw new CliFailure('', EXIT.alertNotSent);
    });
}
