import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../sha256-hex';

/**
 * A new operator token or console session id: 32 random bytes (256 bits), base64url, 43 characters.
 * Shown once (the token) or set once in the cookie (the session id); the database keeps only its hash.
 */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the database keeps of an operator token or a session id: SHA-256, hex. Unsalted and fast on
 * purpose. A salt or a slow hash (bcrypt, scrypt) defends guessable passwords against a stolen
 * table; these secrets are 256 random bits, which no dictionary or table holds and no brute force
 * reaches, so their plain hash is as strong. And only an unsalted hash can be found by an index
 * at sign-in: a salt per row would make every sign-in hash against every operator.
 *
 * Looking the hash up in an index is not a timing leak worth a constant-time compare: the search
 * time depends on the hash of what was typed, and steering a hash towards a stored one needs the
 * token itself. Comparisons of a secret in the clear (the bootstrap ADMIN_TOKEN, the CSRF token)
 * stay constant-time in the console (tokenMatches).
 */
export function secretHash(secret: string): string {
  return sha256Hex(secret);
}
