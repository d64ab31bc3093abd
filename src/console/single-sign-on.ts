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
  const header = deps.config.ADMIN_AUTH_HEADER;
  if (!header || !deps.config.TRUST_PROXY.has(req.socket.remoteAddress ?? '')) return { kind: 'none' };
  const raw = req.headers[header];
  const name = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!name) return { kind: 'none' };
  const operator = name.length > 1024 ? null : await deps.store.findOperator(name);
  return operator ? { kind: 'known', operator } : { kind: 'unknown', name: name.slice(0, 1024) };
}
