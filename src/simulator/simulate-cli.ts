#!/usr/bin/env node
import { Command, InvalidArgumentError } from 'commander';
import { GATEWAY_RETRY_INTERVAL_MS, runSimulation } from './run-simulation';
import { parseEventSelection } from './scenario';
import { formatSummary } from './simulation-summary';

const count = (name: string, min: number) => (text: string) => {
  if (!/^\d+$/.test(text) || Number(text) < min) throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}`);
  return Number(text);
};

const program = new Command('simulate')
  .description("Send the payment gateway's notifications to a receiver and check every ack, as the gateway would")
  .requiredOption('--url <url>', 'the notification URL, e.g. http://localhost:8080/notifications')
  .option('--event <types>', '10, 20, 30, 31, 40, 50, 51, 70, a comma list, or all', (text) => {
    try {
      return parseEventSelection(text);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  }, parseEventSelection('all'))
  .option('--count <n>', 'notifications per event type', count('--count', 1), 1)
  .option('--duplicates <k>', 'extra redeliveries of each notification', count('--duplicates', 0), 0)
  .option('--concurrency <c>', 'requests in flight at once', count('--concurrency', 1), 4)
  .option('--gateway-retries', 'resend what was not acked 0000, up to 10 tries, like the gateway')
  .option('--retry-interval-ms <ms>', 'wait between tries', count('--retry-interval-ms', 0), GATEWAY_RETRY_INTERVAL_MS)
  .option('--forwarded-for <ip>', 'send X-Forwarded-For (a receiver behind TRUST_PROXY believes it)')
  .option('--timeout-ms <ms>', 'give up on one request after this long', count('--timeout-ms', 1), 30_000)
  .option('--json', 'print the summary as JSON')
  // Usage mistakes exit 2, so a script can tell them from a receiver that answered wrongly (1).
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
  .action(async (options) => {
    const summary = await runSimulation({
      url: options.url,
      events: options.event,
      count: options.count,
      duplicates: options.duplicates,
      concurrency: options.concurrency,
      gatewayRetries: Boolean(options.gatewayRetries),
      retryIntervalMs: options.retryIntervalMs,
      forwardedFor: options.forwardedFor,
      timeoutMs: options.timeoutMs,
    });
    process.stdout.write(`${options.json ? JSON.stringify(summary, null, 2) : formatSummary(summary)}\n`);
    // 1: an unexpected ack or a notification never acked; commander exits 1 on usage errors too.
    process.exitCode = summary.ok ? 0 : 1;
  });

program.parseAsync(process.argv).catch((error: Error) => {
  process.stderr.write(`simulate: ${error.message}\n`);
  process.exitCode = 1;
});
