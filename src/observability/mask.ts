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

export function isSensitiveKey(key: string): boolean {
  return (KEEP_LAST_FOUR.test(key) || NAME_LIKE.test(key)) && !NOT_PERSONAL.test(key);
}

/** Deep copy with every sensitive string field masked; cycles and depth are bounded. */
export function maskSensitive(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  if (Array.isArray(value)) return value.map((item) => maskSensitive(item, depth + 1));
  if (value instanceof Error) return { type: value.name, message: value.message };
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = typeof inner === 'string' && isSensitiveKey(key) ? maskValue(key, inner) : maskSensitive(inner, depth + 1);
  }
  return out;
}
