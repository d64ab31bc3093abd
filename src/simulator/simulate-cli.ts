#!/usr/bin/env node
import { Command, InvalidArgumentError } from 'commander';
import { GATEWAY_MAX_TRIES, GATEWAY_RETRY_INTERVAL_MS, runSimulation } from './run-simulation';
import { FAULTS, parseFaults } from './faulty-stories';
import { parseEventSelection } from './scenario';
import { formatSummary } from './simulation-summary';
import { loadDotEnv } from '../config/dotenv';
import { ConfigError, loadConfig } from '../config/env';
import { notificationUrl } from '../config/local-urls';
import { SecretFileError } from '../config/internal-api-settings';
import { signerFromEnv, type Signer } from './simulator-signer';

const count = (name: string, min: number) => (text: string) => {
  if (!/^\d+$/.test(text) || Number(text) < min) throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}`);
  return Number(text);
};

/** Exit codes, stated once for the help and the code: scripts tell a wrong receiver (1) from a wrong command (2). */
const EXIT = { ok: 0, notAcked: 1, usage: 2, internal: 70 } as const;

const httpUrl = (text: string, example = 'http://127.0.0.1:8081') => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError(`must be an http:// or https:// URL, e.g. ${example}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('must be an http:// or https:// URL');
  return url.toString();
};
const notifyUrl = (text: string) => httpUrl(text, 'http://127.0.0.1:8080/notifications');

const faultList = Object.entries(FAULTS)
  .map(([name, fault]) => `  ${name.padEnd(22)}${fault.opens}${fault.afterGrace ? ' (after LEDGER_GRACE_SECONDS)' : ''}${fault.needsExpectation ? '; needs --api-url' : ''}`)
  .join('\n');

const program = new Command('simulate')
  .description(
    "Send the payment gateway's notifications to a receiver and check every ack, as the gateway would. Each order's " +
      'notifications tell a coherent payment story (an approval before its cancels, a deposit before its cancellation), ' +
      "so the receiver's payment ledger opens no discrepancy unless --faults asks for one. Every notification is signed " +
      "with a key made from the receiver's API_TOKEN (else ADMIN_TOKEN), read from the environment or .env as the " +
      'receiver reads them: the ledger marks these orders simulated and the discrepancy alert ignores them. Without ' +
      'either token the receiver takes them for real orders.',
  )
  .option(
    '--url <url>',
    "the notification URL (default: the receiver's own, from HOST, PORT and NOTIFY_PATH in the environment or .env, e.g. http://127.0.0.1:8080/notifications)",
    notifyUrl,
  )
  .option('--event <types>', 'the stories: 10 approval, 20 partial cancels, 30 deposit, 31 deposit cancelled, 40 escrow, 50 refund, 51 refund failed then repeated, 70 UnionPay; a comma list, or all', (text) => {
    try {
      return parseEventSelection(text);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  }, parseEventSelection('all'))
  .option('--count <n>', 'orders (stories) per event type', count('--count', 1), 1)
  .option('--faults <names>', 'also one order per fault, told wrong on purpose (a comma list; see below)', (text) => {
    try {
      return parseFaults(text);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  })
  .option('--api-url <url>', "the receiver's internal API, e.g. http://127.0.0.1:8081, where the faults that need one register the order's expectation (bearer token: API_TOKEN)", httpUrl)
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
Faults (--faults), each opening exactly this discrepancy on its own order:
${faultList}

Exit codes:
  ${EXIT.ok}   every delivery was acked 0000 in its form
  ${EXIT.notAcked}   a delivery was never acked, or an answer was in neither ack form (unexpected)
  ${EXIT.usage}   usage error: unknown or bad option, a malformed --url (or, without one, a bad HOST, PORT or NOTIFY_PATH), a fault that needs --api-url without it
  ${EXIT.internal}  a bug in the simulator (the stack trace is printed)

Progress (resends and their waits) goes to stderr; the summary to stdout.`,
  )
  .exitOverride((error) => process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage))
  .action(async (options) => {
    const faults: Array<keyof typeof FAULTS> = options.faults ?? [];
    const needy = faults.filter((fault) => FAULTS[fault].needsExpectation);
    if (needy.length > 0 && (!options.apiUrl || !process.env.API_TOKEN)) {
      program.error(`error: ${needy.join(', ')} register the order's expectation first: pass --api-url and set API_TOKEN to the receiver's`, { exitCode: EXIT.usage });
    }
    if (options.gatewayRetries && options.retryIntervalMs >= 60_000) {
      const worst = ((GATEWAY_MAX_TRIES - 1) * options.retryIntervalMs) / 60_000;
      process.stderr.write(
        `simulate: a refused notification is resent every ${options.retryIntervalMs / 60_000} min, up to ${worst} min in all; ` +
          'pass --retry-interval-ms 5000 to rehearse faster\n',
      );
    }
    const url = options.url ?? receiverNotificationUrl();
    const sign = simulationSigner();
    const summary = await runSimulation({
      url,
      events: options.event,
      count: options.count,
      faults,
      api: options.apiUrl ? { url: options.apiUrl, token: process.env.API_TOKEN ?? '' } : undefined,
      duplicates: options.duplicates,
      concurrency: options.concurrency,
      gatewayRetries: Boolean(options.gatewayRetries),
      retryIntervalMs: options.retryIntervalMs,
      forwardedFor: options.forwardedFor,
      sign,
      timeoutMs: options.timeoutMs,
      onProgress: (message) => process.stderr.write(`simulate: ${message}\n`),
    });
    process.stdout.write(`${options.json ? JSON.stringify(summary, null, 2) : formatSummary(summary)}\n`);
    process.exitCode = summary.ok ? EXIT.ok : EXIT.notAcked;
  });

/**
 * Without --url, the receiver these settings start: the same `.env` and environment through the
 * receiver's own schema, so an edited `.env` sends the notifications where the receiver listens.
 */
function receiverNotificationUrl(): string {
  try {
    return notificationUrl(loadConfig(process.env));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return program.error(`error: no --url, and the receiver's settings do not say where it listens: ${error.message}`, { exitCode: EXIT.usage });
  }
}

/** The signer of the receiver's own simulator, or null with a line on stderr saying what that means. */
function simulationSigner(): Signer | null {
  let made: ReturnType<typeof signerFromEnv>;
  try {
    made = signerFromEnv(process.env);
  } catch (error) {
    if (error instanceof SecretFileError) return program.error(`error: invalid ${error.variable}: ${error.message}`, { exitCode: EXIT.usage });
    if (error instanceof ConfigError) return program.error(`error: ${error.message}`, { exitCode: EXIT.usage });
    throw error;
  }
  if (made.signer === null) {
    process.stderr.write("simulate: neither API_TOKEN nor ADMIN_TOKEN is set: the receiver takes these orders for real ones (not marked simulated; the discrepancy alert fires for them). Set the receiver's own in the environment or .env to mark them\n");
  }
  return made.signer;
}

// The receiver reads `.env` from the working directory; so does its simulator, for its URL and its secret.
loadDotEnv();
program.parseAsync(process.argv).catch((error: Error) => {
  process.stderr.write(`simulate: unexpected error: ${error?.stack ?? String(error)}\n`);
  process.exitCode = EXIT.internal;
});
