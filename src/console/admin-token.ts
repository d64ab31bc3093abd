import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError, type Config } from '../config/env';
import { TOKEN_ADVICE, weakTokenReason } from '../config/token-strength';

export interface AdminToken {
  value: string;
  /** True when neither ADMIN_TOKEN nor ADMIN_TOKEN_FILE was set and this one was made at start. */
  generated: boolean;
}

/** ADMIN_TOKEN, else the first line of ADMIN_TOKEN_FILE (a mounted secret), else a fresh random token. */
export function resolveAdminToken(config: Pick<Config, 'ADMIN_TOKEN' | 'ADMIN_TOKEN_FILE'>): AdminToken {
  if (config.ADMIN_TOKEN) return { value: config.ADMIN_TOKEN, generated: false };
  if (config.ADMIN_TOKEN_FILE) {
    let text: string;
    try {
      text = readFileSync(config.ADMIN_TOKEN_FILE, 'utf8');
    } catch (error) {
      throw new ConfigError(`invalid ADMIN_TOKEN_FILE: cannot read ${config.ADMIN_TOKEN_FILE} (${(error as NodeJS.ErrnoException).code ?? 'error'}); point it at a readable file holding the token`);
    }
    const value = text.split(/\r?\n/)[0]!.trim();
    const reason = weakTokenReason(value);
    if (reason) throw new ConfigError(`invalid ADMIN_TOKEN_FILE: the token on its first line ${reason}; ${TOKEN_ADVICE}`);
    return { value, generated: false };
  }
  return { value: randomBytes(24).toString('base64url'), generated: true };
}

/** Compares digests, so neither the length nor a common prefix of the real token leaks through timing. */
export function tokenMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length === 0 || given.length > 1024) return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(given));
}
