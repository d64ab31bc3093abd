/**
 * Personal data must never reach logs readable in the clear (card, account, phone, names,
 * e-mail). Masking is by field name, so a new gateway field with a telling name is covered
 * without a code change.
 */
const KEEP_LAST_FOUR = /(card|account|acct|acnt|phone|mobile|tel|contact|cpno)/i;
const NAME_LIKE = /(name|depositor|holder|email|mail)$/i;
const NOT_PERSONAL = /^(bank|issuer|acquirer|card|product|goods|mall|shop|status|res|event|file|host|queue|method|type|level|message)name$/i;

export function maskValue(key: string, value: string): string {
  if (value === '') return value;
  if (KEEP_LAST_FOUR.test(key) && !NOT_PERSONAL.test(key)) {
    return value.length <= 4 ? '*'.repeat(value.length) : '*'.repeat(value.length - 4) + value.slice(-4);
  }
  if (NAME_LIKE.test(key) && !NOT_PERSONAL.test(key)) {
    return [...value].map((ch, i) => (i === 0 ? ch : '*')).join('');
  }
  return value;
}

/**
 * Every log record asks about the same few names (three patterns each), so answers are kept.
 * Bounded in count and length, because a name may come from a body: past either bound a name
 * is simply tested.
 */
const KNOWN_KEYS = new Map<string, boolean>();
const MAX_KNOWN_KEYS = 1024;
const MAX_KNOWN_KEY_LENGTH = 64;

export function isSensitiveKey(key: string): boolean {
  let sensitive = KNOWN_KEYS.get(key);
  if (sensitive === undefined) {
    sensitive = (KEEP_LAST_FOUR.test(key) || NAME_LIKE.test(key)) && !NOT_PERSONAL.test(key);
    if (KNOWN_KEYS.size < MAX_KNOWN_KEYS && key.length <= MAX_KNOWN_KEY_LENGTH) KNOWN_KEYS.set(key, sensitive);
  }
  return sensitive;
}

/**
 * Deep copy with every sensitive field masked; cycles and depth are bounded. A number under
 * a sensitive name is masked as its digits (a card number sent bare), and what lies deeper
 * than the bound is left out, never passed through unmasked.
 */
export function maskSensitive(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return '<nested too deep to show>';
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  if (Array.isArray(value)) return value.map((item) => maskSensitive(item, depth + 1));
  if (value instanceof Error) return { type: value.name, message: value.message };
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const scalar = typeof inner === 'string' || typeof inner === 'number' || typeof inner === 'bigint';
    out[key] = scalar && isSensitiveKey(key) ? maskValue(key, String(inner)) : maskSensitive(inner, depth + 1);
  }
  return out;
}

/** Six or more digits, single spaces or dashes between them allowed (`5361-4812-3456-1234`). */
const DIGIT_RUN = /\d(?:[ -]?\d){5,}/g;
// A preview may end inside a value: the closing quote is optional at the very end.
const JSON_PAIR = /"([A-Za-z_]\w*)"(\s*:\s*)"((?:[^"\\]|\\.)*)("|$)/g;
const FORM_PAIR = /(^|[&?])([A-Za-z_][\w]*)=([^&]*)/g;

/**
 * Text that may hold a body without its structure (the first bytes of an undecodable body,
 * an endpoint's error answer): values of sensitive names are masked as in a body, and
 * every run of digits that could be a card or account number keeps its last four only.
 */
export function maskFreeText(text: string): string {
  return text
    .replace(JSON_PAIR, (pair, key: string, colon: string, value: string, close: string) =>
      isSensitiveKey(key) ? `"${key}"${colon}"${maskValue(key, value)}${close}` : pair)
    .replace(FORM_PAIR, (pair, lead: string, key: string, value: string) =>
      isSensitiveKey(key) ? `${lead}${key}=${maskValue(key, value)}` : pair)
    .replace(DIGIT_RUN, (run) => {
      let keep = 4;
      return [...run].reverse().map((ch) => (/\d/.test(ch) && keep-- <= 0 ? '*' : ch)).reverse().join('');
    });
}

/**
 * A field name taken from a body, as it may appear in a reason or a log: a name shaped like
 * the gateway's (`cardNo`, `productNo12`, `res_cd`) as it is, anything else (long, odd
 * characters, enough digits to be a card or account number) only described.
 */
export function shownFieldName(name: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/.test(name) && (name.match(/\d/g)?.length ?? 0) < 6;
  return plain ? name : `(a field name of ${[...name].length} characters)`;
}
