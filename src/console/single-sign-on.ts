import type { IncomingMessage } from 'node:http';
import type { ConsoleDeps } from './console-deps';
import type { OperatorIdentity } from '../store/store';

export type SignOn =
  /** No sign-on header to believe: not configured, absent, or from a peer that is no trusted proxy. */
  | { kind: 'none' }
  | { kind: 'known'; operator: OperatorIdentity }
  | { kind: 'unknown'; name: string };

/**
 * Who the authenticating proxy says this is (ADMIN_AUTH_HEADER). Believed only when the direct
 * peer is in TRUST_PROXY: anyone else could send the header and name anyone.
 */
export async function signOnOf(req: IncomingMessage, deps: Pick<ConsoleDeps, 'config' | 'store'>): Promise<SignOn> {
  const name = signOnName(req, deps.config);
  if (name === null) return { kind: 'none' };
  const operator = name.length > 1024 ? null : await deps.store.findOperator(name);
  return operator ? { kind: 'known', operator } : { kind: 'unknown', name: name.slice(0, 1024) };
}

/** The name in ADMIN_AUTH_HEADER when it is to be believed (a TRUST_PROXY peer sent it), else null. */
export function signOnName(req: IncomingMessage, config: Pick<ConsoleDeps['config'], 'ADMIN_AUTH_HEADER' | 'TRUST_PROXY'>): string | null {
  const header = config.ADMIN_AUTH_HEADER;
  if (!header || !config.TRUST_PROXY.has(req.socket.remoteAddress ?? '')) return null;
  const raw = req.headers[header];
  return (Array.isArray(raw) ? raw[0] : raw)?.trim() || null;
}
