/** The shortest token accepted for the console or the internal API. */
const MIN_TOKEN_LENGTH = 16;

/** What an operator is told to use instead of a weak token. */
export const TOKEN_ADVICE = 'use a long random token, e.g. openssl rand -hex 32';

/**
 * Why a token is too weak to guard a listener anyone on its network can reach, or null.
 * The one check behind ADMIN_TOKEN(_FILE) and API_TOKEN(_FILE): a short token can be guessed
 * through the sign-in form or the API, and twenty spaces or one repeated character are no
 * secret at all whatever their length.
 */
export function weakTokenReason(token: string): string | null {
  if (token.trim() === '') return 'must not be empty or only whitespace';
  // Not weak but unusable: HTTP drops whitespace around a header value and a bearer token ends
  // at a space, so no request could ever present it (a stray space or a CRLF file's \r).
  if (/\s/.test(token)) return 'must not contain whitespace';
  if ([...token].length < MIN_TOKEN_LENGTH) return `must be at least ${MIN_TOKEN_LENGTH} characters`;
  if (new Set(token).size === 1) return 'must not be one repeated character';
  return null;
}
