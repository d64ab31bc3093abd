import { Command, InvalidArgumentError } from 'commander';
import { CliFailure, EXIT } from '../exit-codes';
import { readSecrets, SecretFileError, type Secrets } from '../config/internal-api-settings';
import { keyForMall } from '../gateway/msg-auth';
import { GATEWAY_MAX_TRIES, GATEWAY_RETRY_INTERVAL_MS } from '../simulator/run-simulation';
import { startSandbox } from './sandbox-app';

export interface SandboxIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  /** Resolves when the operator stops the sandbox (Ctrl-C or SIGTERM). */
  stopped: () => Promise<void>;
}

const integer = (name: string, min: number) => (text: string) => {
  if (!/^\d+$/.test(text) || Number(text) < min) throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}`);
  return Number(text);
};

const url = (text: string) => {
  if (!/^https?:\/\/[^\s]+$/i.test(text)) throw new InvalidArgumentError('must be an http(s) URL');
  return text.replace(/\/$/, '');
};

/**
 * `sandbox`: the gateway's services, payment pages and notification sender on one local port.
 * The HMAC key is read like the service reads it (GATEWAY_SECRET_KEY, _FILE, _<MALLID>), so
 * one .env serves both and a wrong key shows up as the gateway's refusal.
 */
export function sandboxCommand(io: SandboxIo): Command {
  return new Command('sandbox')
    .description("Run a local twin of the payment gateway: trades, cancellations, VAN, payment pages, notifications")
    .option('--port <port>', 'listen on this port', integer('--port', 0), 8090)
    .option('--host <host>', 'listen on this address', '127.0.0.1')
    .option('--retry-interval <ms>', 'wait between notification tries (the gateway: 3 minutes)', integer('--retry-interval', 0), GATEWAY_RETRY_INTERVAL_MS)
    .option('--max-tries <n>', 'notification tries before giving up (the gateway: 10)', integer('--max-tries', 1), GATEWAY_MAX_TRIES)
    .option('--notify-url <url>', 'where notifications go when a call names no notifyUrl', url)
    .option('--public-url <url>', 'base of paymentPageUrl when browsers reach the sandbox by another address', url)
    .action(async (options: { port: number; host: string; retryInterval: number; maxTries: number; notifyUrl?: string; publicUrl?: string }) => {
      const keys = gatewayKeys(io.env);
      const sandbox = await startSandbox({
        port: options.port,
        host: options.host,
        publicUrl: options.publicUrl,
        defaultNotifyUrl: options.notifyUrl ?? null,
        secretKeyFor: (mallId) => keyForMall(keys, mallId),
        schedule: { intervalMs: options.retryInterval, maxTries: options.maxTries },
      });
      io.stdout(
        [
          `gateway sandbox on ${sandbox.url}`,
          `  wallet-a  POST ${sandbox.url}/api/trades/wallet-a        (GATEWAY_WALLET_A_URL=${sandbox.url})`,
          `  wallet-b  POST ${sandbox.url}/api/trades/wallet-b/revise (GATEWAY_WALLET_B_URL=${sandbox.url})`,
          `  VAN       POST ${sandbox.url}/smpy/vanpay/reqAprv|reqCancel|reqRtran (GATEWAY_VAN_URL=${sandbox.url})`,
          `  scenarios ${sandbox.context.settings.publicUrl}/sandbox · timeline ${sandbox.context.settings.publicUrl}/sandbox/timeline`,
          `  notifications retried every ${options.retryInterval} ms, at most ${options.maxTries} tries`,
          options.notifyUrl
            ? `  a call that names no notifyUrl (a VAN approval usually does not) is notified at ${options.notifyUrl}`
            : '  no --notify-url: a call that names no notifyUrl (a VAN approval usually does not) gets no notification; its answer says so',
          keys.gatewayKey || Object.keys(keys.gatewayKeysByMall).length > 0 ? '' : '  no GATEWAY_SECRET_KEY: cancellations are refused (E102) until one is set',
        ].filter(Boolean).join('\n') + '\n',
      );
      await io.stopped();
      await sandbox.stop();
    });
}

/** The keys exactly as the service reads them: GATEWAY_SECRET_KEY, its _FILE, and per-mall overrides. */
function gatewayKeys(env: NodeJS.ProcessEnv): Pick<Secrets, 'gatewayKey' | 'gatewayKeysByMall'> {
  try {
    const { gatewayKey, gatewayKeysByMall } = readSecrets(env);
    return { gatewayKey, gatewayKeysByMall };
  } catch (error) {
    if (error instanceof SecretFileError) throw new CliFailure(`invalid ${error.variable}: ${error.message}`, EXIT.usage);
    throw error;
  }
}

/** Resolves on the first Ctrl-C or SIGTERM. */
export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
