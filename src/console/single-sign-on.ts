import type { IncomingMessage } from 'node:http';
import type { AddressList } from '../config/address-list';
import type { Logger } from '../observability/logger';
import { BOOTSTRAP_OPERATOR, type OperatorIdentity } from '../store/store';
import type { ConsoleDeps } from './console-deps';

type SignOnConfig = Pick<ConsoleDeps['config'], 'ADMIN_AUTH_HEADER' | 'ADMIN_AUTH_PROXY' | 'TRUST_PROXY'>;

export type SignOn =
  /** No sign-on header to believe: not configured, absent, or from a peer that is not the sign-on proxy. */
  | { kind: 'none' }
  | { kind: 'known'; operator: OperatorIdentity }
  /**
   * The proxy names someone the header may not sign in: no operator (`unknown`), or one who
   * signs in with a token (`token`, the bootstrap admin among them).
   */
  | { kind: 'refused'; name: string; reason: 'unknown' | 'token' };

/**
 * Who the authenticating proxy says this is (ADMIN_AUTH_HEADER). Only an operator registered for
 * single sign-on (`--sso`, no token) is signed in by it: a token operator's power must not pass to
 * whoever can make the proxy say their name (an account of that name at the identity provider).
 */
export async function signOnOf(req: IncomingMessage, deps: Pick<ConsoleDeps, 'config' | 'store'>): Promise<SignOn> {
  const name = signOnName(req, deps.config);
  if (name === null) return { kind: 'none' };
  const shown = name.slice(0, 1024);
  if (name === BOOTSTRAP_OPERATOR) return { kind: 'refused', name, reason: 'token' };
  const operator = name.length > 1024 ? null : await deps.store.findOperator(name);
  if (!operator) return { kind: 'refused', name: shown, reason: 'unknown' };
  return operator.sso ? { kind: 'known', operator } : { kind: 'refused', name: shown, reason: 'token' };
}

/**
 * The addresses whose ADMIN_AUTH_HEADER is believed: ADMIN_AUTH_PROXY, or TRUST_PROXY when it is
 * unset. A load balancer trusted for X-Forwarded-For need not be trusted to name operators.
 */
function signOnProxies(config: SignOnConfig): AddressList {
  return config.ADMIN_AUTH_PROXY ?? config.TRUST_PROXY;
}

/** The name in ADMIN_AUTH_HEADER when it is to be believed (the sign-on proxy sent it), else null. */
export function signOnName(req: IncomingMessage, config: SignOnConfig): string | null {
  const header = config.ADMIN_AUTH_HEADER;
  if (!header || !signOnProxies(config).has(req.socket.remoteAddress ?? '')) return null;
  const raw = req.headers[header];
  return (Array.isArray(raw) ? raw[0] : raw)?.trim() || null;
}

/** Said once at start: every TRUST_PROXY peer may name any single sign-on operator. */
export function warnOfSignOnFallback(config: SignOnConfig, logger: Logger): void {
  if (!config.ADMIN_AUTH_HEADER || config.ADMIN_AUTH_PROXY) return;
  logger.warn('ADMIN_AUTH_PROXY is unset: the sign-on header (ADMIN_AUTH_HEADER) is believed from every TRUST_PROXY address; set ADMIN_AUTH_PROXY to the authenticating proxy\'s own addresses', {
    trustProxy: config.TRUST_PROXY.entries,
  });
}
