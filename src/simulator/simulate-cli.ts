#!/usr/bin/env node
import { Command, InvalidArgumentError } from 'commander';
import { GATEWAY_MAX_TRIES, GATEWAY_RETRY_INTERVAL_MS, runSimulation } from './run-simulation';
import { parseEventSelection } from './scenario';
import { formatSummary } from './simulation-summary';

const count = (name: string, min: number) => (text: string) => {
  if (!/^\d+$/.test(text) || Number(text) < min) throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}`);
  return Number(text);
};

/** Exit codes, stated once for the help and the code: scripts tell a wrong receiver (1) from a wrong command (2). */
const EXIT = { ok: 0, notAcked: 1, usage: 2, internal: 70 } as const;

const notifyUrl = (text: string) => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError('must be an http:// or https:// URL, e.g. http://127.0.0.1:8080/notifications');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('must be an http:// or https:// URL');
  return url.toString();
};

const program = new Command('simulate')
  .description("Send the payment gateway's notifications to a receiver and check every ack, as the gateway would")
  .requiredOption('--url <url>', 'the notification URL, e.g. http://localhost:8080/notifications', notifyUrl)
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
  .option('--retry-interval-ms <ms>', "wait between tries (the gateway's own is 180000: 3 minutes)", count('--retry-interval-ms', 0), GATEWAY_RETRY_INTERVAL_MS)
  .option('--forwarded-for <ip>', 'send X-Forwarded-For (a receiver behind TRUST_PROXY believes it)')
  .option('--timeout-ms <ms>', 'give up on one request after this long', count('--timeout-ms', 1), 30_000)
  .option('--json', 'print the summary as JSON')
  .addHelpText(
    'after',
    `
Exit codes:
  ${EXIT.ok}   every delivery was acked 0000 in its form
  ${EXIT.notAcked}   a delivery was never acked, or an answer was in neither ack form (unexpected)
  ${EXIT.usage}   usage error: unknown or bad option, missing or malformed --url
  ${EXIT.internal}  a bug in the simulator (the stack trace is printed)

Progress (resends and their waits) goes to stderr; the summary to stdout.`,
  )
  .exitOverride((error) => process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage))
  .action(async (options) => {
    if (options.gatewayRetries && options.retryIntervalMs >= 60_000) {
      const worst = ((GATEWAY_MAX_TRIES - 1) * options.retryIntervalMs) / 60_000;
      process.stderr.write(
        `simulate: a refused notification is resent every ${options.retryIntervalMs / 60_000} min, up to ${worst} min in all; ` +
          'pass --retry-interval-ms 5000 to rehearse faster\n',
      );
    }
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
      onProgress: (message) => process.stderr.write(`simulate: ${message}\n`),
    });
    process.stdout.write(`${options.json ? JSON.stringify(summary, null, 2) : formatSummary(summary)}\n`);
    process.exitCode = summary.ok ? EXIT.ok : EXIT.notAcked;
  });

program.parseAsync(process.argv).catch((error: Error) => {
  process.stderr.write(`simulate: unexpected error: ${error?.stack ?? String(error)}\n`);
  process.exitCode = EXIT.internal;
});
