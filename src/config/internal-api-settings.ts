import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { TOKEN_ADVICE, weakTokenReason } from './token-strength';

const port = (name: string) => z.coerce.number({ error: `${name} must be a number` }).int().min(0).max(65535);

const baseUrl = z
  .string()
  .regex(/^https?:\/\/[^\s]+$/, 'must be an http(s):// base URL such as https://gateway.example.com')
  .transform((url) => url.replace(/\/+$/, ''))
  .optional();

/** A token a listener is guarded by: refused at start when weak (see weakTokenReason). */
export const strongToken = z.string().superRefine((token, ctx) => {
  const reason = weakTokenReason(token);
  if (reason) ctx.addIssue({ code: 'custom', message: `${reason}; ${TOKEN_ADVICE}` });
});

/** The base URL variables of the gateway's routes. */
export const GATEWAY_URL_NAMES = ['GATEWAY_WALLET_A_URL', 'GATEWAY_WALLET_B_URL', 'GATEWAY_VAN_URL'] as const;

const positiveMs = z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(1);

/** The internal API and the gateway client (merchant → gateway). */
export const internalApiSettings = {
  API_PORT: port('API_PORT').default(8081),
  API_HOST: z.string().min(1).default('127.0.0.1'),
  API_TOKEN: strongToken.optional(),
  API_TOKEN_FILE: z.string().optional(),
  GATEWAY_WALLET_A_URL: baseUrl,
  GATEWAY_WALLET_B_URL: baseUrl,
  GATEWAY_VAN_URL: baseUrl,
  GATEWAY_SECRET_KEY: z.string().min(1).optional(),
  GATEWAY_SECRET_KEY_FILE: z.string().optional(),
  MSG_AUTH_ENCODING: z.enum(['hex', 'base64'], { error: 'must be hex or base64' }).default('hex'),
  GATEWAY_TIMEOUT_MS: positiveMs.default(30_000),
  GATEWAY_RETRY_BASE_MS: positiveMs.default(1_000),
  GATEWAY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  PUBLIC_NOTIFY_URL: z.string().regex(/^https?:\/\/[^\s]+$/, 'must be an http(s):// URL').optional(),
  /** A command still pending after this long is counted in the long-pending gauge (an alert). */
  COMMAND_PENDING_ALERT_MS: positiveMs.default(300_000),
} as const;

/** Settings whose values must never be echoed or kept beside ordinary settings. */
export const SECRET_NAMES = ['API_TOKEN', 'API_TOKEN_FILE', 'GATEWAY_SECRET_KEY', 'GATEWAY_SECRET_KEY_FILE'] as const;

export interface Secrets {
  apiToken: string | undefined;
  /** The default HMAC key; `byMall` holds GATEWAY_SECRET_KEY_<MALLID> overrides. */
  gatewayKey: string | undefined;
  gatewayKeysByMall: Record<string, string>;
}

/** A *_FILE names a file whose content (trailing newline dropped) is the secret: Docker and Kubernetes secrets. */
export function readSecrets(env: Record<string, string | undefined>): Secrets {
  const gatewayKeysByMall: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const m = /^GATEWAY_SECRET_KEY_([A-Za-z0-9]{1,8})(_FILE)?$/.exec(name);
    if (!m || !value || name === 'GATEWAY_SECRET_KEY_FILE') continue;
    gatewayKeysByMall[m[1]!] = m[2] ? readSecretFile(name, value) : value;
  }
  const apiToken = secret(env, 'API_TOKEN');
  // API_TOKEN itself is checked with the other settings; the file's content only once read.
  if (apiToken !== undefined && !env.API_TOKEN) {
    const reason = weakTokenReason(apiToken);
    if (reason) throw new SecretFileError('API_TOKEN_FILE', `the token in it ${reason}`, TOKEN_ADVICE);
  }
  return {
    apiToken,
    gatewayKey: secret(env, 'GATEWAY_SECRET_KEY'),
    gatewayKeysByMall,
  };
}

function secret(env: Record<string, string | undefined>, name: string): string | undefined {
  if (env[name]) return env[name];
  const file = env[`${name}_FILE`];
  return file ? readSecretFile(`${name}_FILE`, file) : undefined;
}

function readSecretFile(name: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SecretFileError(name, `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const value = text.replace(/\r?\n$/, '');
  if (!value) throw new SecretFileError(name, `${path} is empty`);
  return value;
}

export class SecretFileError extends Error {
  constructor(readonly variable: string, reason: string, readonly advice = 'point it at a readable file holding the secret') {
    super(reason);
  }
}
