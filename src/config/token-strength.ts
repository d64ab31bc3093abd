/** The shortest token accepted for the console or the internal API. */
const MIN_TOKEN_LENGTH = 16;
/**
 * Fewer different characters than this is a pattern, not a secret (aaaabbbbccccdddd). A random
 * 16-character hex token has about 10, and fewer than 6 about once in twenty thousand.
 */
const MIN_DISTINCT = 6;
/**
 * Characters a guesser cannot foresee from the one before it (see `surprises`). A counting run or a
 * keyboard walk such as 1234567890123456 has one or two; a random 16-character hex token about 13.
 */
const MIN_SURPRISES = 6;

/** What an operator is told to use instead of a weak token: two commands that make a good one. */
export const TOKEN_ADVICE = `generate one with: openssl rand -hex 32 (or node -e "console.log(require('crypto').randomBytes(32).toString('hex'))")`;

/**
 * Why a token is too weak to guard a listener anyone on its network can reach, or null.
 * The one check behind every token an operator sets by hand (ADMIN_TOKEN, API_TOKEN and their
 * _FILE forms): a short token can be guessed through the sign-in form or the API, and a repeated
 * pattern, a counting run or a keyboard walk is among the first things a guesser tries, whatever
 * its length.
 */
export function weakTokenReason(token: string): string | null {
  if (token.trim() === '') return 'must not be empty or only whitespace';
  // Not weak but unusable: HTTP drops whitespace around a header value and a bearer token ends
  // at a space, so no request could ever present it (a stray space or a CRLF file's \r).
  if (/\s/.test(token)) return 'must not contain whitespace';
  const chars = [...token];
  if (chars.length < MIN_TOKEN_LENGTH) return `must be at least ${MIN_TOKEN_LENGTH} characters`;
  if (new Set(chars).size === 1) return 'must not be one repeated character';
  if (repeatsAPattern(chars)) return 'must not repeat a shorter pattern (such as abababab…)';
  if (new Set(chars.map((c) => c.toLowerCase())).size < MIN_DISTINCT) return `must have at least ${MIN_DISTINCT} different characters`;
  if (surprises(chars) < MIN_SURPRISES) return 'must not be a sequence or a keyboard walk (such as 12345678… or qwerty…)';
  return null;
}

/** The whole token is one shorter run written again and again (abab…, k3J9k3J9…), the last copy maybe cut short. */
function repeatsAPattern(chars: readonly string[]): boolean {
  for (let period = 1; period <= chars.length / 2; period += 1) {
    if (chars.every((c, i) => i < period || c === chars[i - period])) return true;
  }
  return false;
}

/**
 * Runs a guesser walks: counting up or down (9 then 0 again), the alphabet either way, and each
 * row of a keyboard, read without case.
 */
const WALKS = ['01234567890', 'abcdefghijklmnopqrstuvwxyza', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p', '1q2w3e4r5t6y7u8i9o0p'];

/** The first character, and every one that neither repeats the one before it nor is its neighbour on a walk. */
function surprises(chars: readonly string[]): number {
  let count = 1;
  for (let i = 1; i < chars.length; i += 1) {
    const before = chars[i - 1]!.toLowerCase();
    const here = chars[i]!.toLowerCase();
    if (here !== before && !WALKS.some((walk) => neighbours(walk, before, here))) count += 1;
  }
  return count;
}

function neighbours(walk: string, a: string, b: string): boolean {
  for (let i = 1; i < walk.length; i += 1) {
    const x = walk[i - 1]!;
    const y = walk[i]!;
    if ((x === a && y === b) || (x === b && y === a)) return true;
  }
  return false;
}
