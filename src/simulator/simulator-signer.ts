import { readSecrets } from '../config/internal-api-settings';
import { resolveAdminToken } from '../console/admin-token';
import { SIMULATOR_MARK_HEADER, simulatorKey, simulatorMark } from '../notifications/simulator-mark';

/** The headers that carry the simulator's mark of a body. */
export type Signer = (body: Buffer) => Record<string, string>;

/**
 * The mark's key from the receiver's own secret, read from the same environment and `.env` it
 * reads: API_TOKEN (or API_TOKEN_FILE), else ADMIN_TOKEN (or ADMIN_TOKEN_FILE). The receiver takes
 * a notification for its simulator's only with this mark, so the one who runs the simulator must
 * hold one of its operators' secrets; without one the orders are real to it, and said so.
 */
export function signerFromEnv(env: NodeJS.ProcessEnv): { signer: Signer | null; signedWith: 'API_TOKEN' | 'ADMIN_TOKEN' | null } {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const apiToken = readSecrets(present).apiToken;
  if (apiToken !== undefined) return { signer: signerOf(apiToken), signedWith: 'API_TOKEN' };
  const admin = resolveAdminToken({ ADMIN_TOKEN: present.ADMIN_TOKEN, ADMIN_TOKEN_FILE: present.ADMIN_TOKEN_FILE });
  if (!admin.generated) return { signer: signerOf(admin.value), signedWith: 'ADMIN_TOKEN' };
  return { signer: null, signedWith: null };
}

export function signerOf(secret: string): Signer {
  const key = simulatorKey(secret);
  return (body) => ({ [SIMULATOR_MARK_HEADER]: simulatorMark(key, body) });
}
