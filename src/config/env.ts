import { z } from 'zod';
import { databaseOf } from './database-url';
import { QUEUE_SCHEMES, queueScheme } from './queue-url';
import { redactUrl } from '../observability/redact-url';
import { parseAddressList, type AddressList } from './address-list';
import { consoleSettings } from './console-settings';
import { ledgerEnvSettings } from './ledger-env';
import { tracingEnvSettings } from './tracing-env';
import { alertSettings, alertSettingsIssue } from './alert-settings';
import type { GatewayEnv } from './gateway-addresses';
import { GATEWAY_URL_NAMES, SECRET_NAMES, SecretFileError, internalApiSettings, readSecrets, strongToken, type Secrets } from './internal-api-settings';

const port = (name: string) =>
  z.coerce.number({ error: `${name} must be a number` }).int().min(0).max(65535);

const addressList = z.string().transform((text, ctx): AddressList => {
  try {
    return parseAddressList(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `${(error as Error).message}; use comma-separated IPs or CIDRs like 10.0.0.0/8` });
    return z.NEVER;
  }
});

/** Every environment variable the receiver reads, with its embedded default. */
const envSchema = z.object({
  // all: everything in one process; ingest: the gateway's listener and the relay; operator: the rest.
  ROLE: z.enum(['all', 'ingest', 'operator'], { error: 'must be all, ingest or operator' }).default('all'),
  PORT: port('PORT').default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  NOTIFY_PATH: z.string().regex(/^\/[A-Za-z0-9._~\-/]*$/, 'must start with / and contain only URL path characters').default('/notifications'),
  ADMIN_PORT: port('ADMIN_PORT').default(9464),
  ADMIN_HOST: z.string().min(1).default('127.0.0.1'),
  GATEWAY_ENV: z.enum(['production', 'development'], { error: 'must be production or development' }).default('development'),
  EXTRA_ALLOWED_IPS: addressList.prefault(''),
  TRUST_PROXY: addressList.prefault(''),
  // Unset: the sign-on header is believed from TRUST_PROXY (see signOnProxies).
  ADMIN_AUTH_PROXY: addressList.optional(),
  MALL_IDS: z
    .string()
    .default('')
    .transform((text) => text.split(',').map((s) => s.trim()).filter(Boolean))
    .refine((ids) => ids.every((id) => /^[A-Za-z0-9]{1,8}$/.test(id)), 'each mall id is 1-8 letters or digits'),
  DATABASE_URL: z
    .string()
    .default('sqlite:./data/receiver.db')
    .refine((url) => databaseOf(url) !== null, 'must be sqlite:PATH or postgres://…'),
  QUEUE_URL: z
    .string()
    .default('file:./data/events.ndjson')
    .refine((url) => queueScheme(url) !== null, {
      message: `must start with one of ${QUEUE_SCHEMES.map((s) => `${s}:`).join(', ')}`,
    }),
  QUEUE_NAME: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'must be letters, digits, - or _').default('payment-notifications'),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly']).default('info'),
  RELAY_MAX_ATTEMPTS: z.coerce.number().int().min(0).default(0),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  // A weak token can be guessed through the sign-in form; unset, a random one is generated and logged.
  ADMIN_TOKEN: strongToken.optional(),
  ADMIN_TOKEN_FILE: z.string().min(1).optional(),
  RETENTION_DAYS: z.coerce.number({ error: 'RETENTION_DAYS must be a number' }).int().min(1, 'must be at least 1 day').default(90),
  ...internalApiSettings,
  ...consoleSettings,
  ...ledgerEnvSettings,
  ...tracingEnvSettings,
  ...alertSettings,
}).superRefine((env, ctx) => {
  const alertIssue = alertSettingsIssue(env);
  if (alertIssue) ctx.addIssue({ code: 'custom', path: [alertIssue.path], message: alertIssue.message });
  // A header any client can send names nobody unless a proxy that authenticated the person set it.
  if (env.ADMIN_AUTH_HEADER && (env.ADMIN_AUTH_PROXY ?? env.TRUST_PROXY).entries.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['ADMIN_AUTH_HEADER'], message: 'is believed only from the sign-on proxy; set ADMIN_AUTH_PROXY (or TRUST_PROXY) to the authenticating proxy\'s address' });
  }
  // A SQLite file is served by one process, which therefore runs every part of the receiver.
  if (env.ROLE !== 'all' && databaseOf(env.DATABASE_URL)?.kind === 'sqlite') {
    ctx.addIssue({ code: 'custom', path: ['ROLE'], message: `${env.ROLE} needs DATABASE_URL=postgres://…: one process serves a SQLite file and runs every role (ROLE=all)` });
  }
  // The internal API moves money: it must never be reachable where the gateway's notifications arrive.
  if (env.API_PORT !== 0 && env.API_PORT === env.PORT) {
    ctx.addIssue({ code: 'custom', path: ['API_PORT'], message: 'must differ from PORT: the internal API never shares the notification listener' });
  }
  // In production a plain-http gateway URL carries msgAuthValue and card tokens in clear, and
  // anyone on the path can answer (or redirect) in the gateway's name.
  if (env.GATEWAY_ENV === 'production') {
    for (const name of GATEWAY_URL_NAMES) {
      if (env[name]?.startsWith('http:')) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'must be an https:// URL when GATEWAY_ENV=production' });
      }
    }
  }
});

export type Config = Omit<z.infer<typeof envSchema>, (typeof SECRET_NAMES)[number]> & { GATEWAY_ENV: GatewayEnv; secrets: Secrets };

/** A setting the receiver cannot start with; its message is the one line an operator sees. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "use the default", as it does in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (parsed.success) {
    const settings = Object.fromEntries(Object.entries(parsed.data).filter(([key]) => !(SECRET_NAMES as readonly string[]).includes(key)));
    try {
      return { ...(settings as Omit<Config, 'secrets'>), secrets: readSecrets(present) };
    } catch (error) {
      if (!(error instanceof SecretFileError)) throw error;
      throw new ConfigError(`invalid ${error.variable}: ${error.message}; ${error.advice}`);
    }
  }
  const issue = parsed.error.issues[0]!;
  const name = String(issue.path[0] ?? 'environment');
  // A secret's value is never echoed, not even when it is wrong.
  const secret = (SECRET_NAMES as readonly string[]).includes(name) || name.startsWith('GATEWAY_SECRET_KEY') || name.startsWith('ADMIN_TOKEN')
    // A webhook's URL is its token; an SMTP URL carries a password.
    || name === 'ALERT_WEBHOOK_URL' || name === 'ALERT_SMTP_URL';
  const got = env[name] === undefined || secret ? '' : ` (got "${redactUrl(String(env[name]))}")`;
  throw new ConfigError(`invalid ${name}${got}: ${issue.message}; fix it in the environment or .env (see .env.example)`);
}
