/**
 * Card data (PCI DSS): a card number is never shown whole, wherever it stands (a `shopValue1`, an
 * unknown field, JSON inside a string, a body that is not JSON, a log message), and the card's
 * secrets (its CVC, its magnetic tracks) are never shown at all. Found by value, not by name: a
 * number of 13 to 19 digits, as one run or in the groups people write (`4111 1111 1111 1111`,
 * `3782-822463-10005`), that passes the Luhn check. At most its first six and last four digits
 * stay, as PCI DSS allows.
 */

/** Fields that hold a card's secrets, in any case and nesting: masked whole, whatever they hold. */
const CARD_SECRET = /^(?:cvc|cvv)2?$|^track[_-]?[12]$/i;

export function isCardSecretKey(key: string): boolean {
  return CARD_SECRET.test(key);
}

// Digit groups joined by one separator: a space or a dash, and as forms encode a space, `+` or
// `%20`. Such a sequence is cut into card-number candidates below. The digits of a percent-escape
// (`%20`, `%3D`) are the escape's, not a number's.
const DIGIT_GROUPS = /(?<!%[0-9A-Fa-f]?)\d+(?:(?:[ +-]|%20)\d+)*/g;
const SEPARATOR = /%20|[ +-]/g;
/**
 * What every candidate holds: a run of 13 to 19 digits (a longer one, a 20-digit pgCno, is no
 * card), one after a percent-escape, or two written groups in a row (a written card has three).
 */
const CANDIDATE = /(?<!\d)\d{13,19}(?!\d)|%[0-9A-Fa-f]?\d{13}|\d{3}(?:[ +-]|%20)\d{3}/;
/** A card written in groups has groups of 3 to 6 digits (4-4-4-4, 4-6-5, 4-4-4-4-3). */
const MIN_GROUP = 3;
const MAX_GROUP = 6;
const MIN_DIGITS = 13;
const MAX_DIGITS = 19;

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Digit strings that pass the Luhn check by chance but cannot be a card number, so that the ids,
 * times and counters an operator reads stay readable: no issuer number starts with 0 (zero-padded
 * counters); a 13-digit number starting with 1 is a time in epoch milliseconds (2001-2033), a
 * 13-digit card is a Visa (4); 14 digits that read as the gateway's yyyyMMddHHmmss are a time
 * (14-digit cards are Diners: 30, 36, 38).
 */
function cannotBeCard(digits: string): boolean {
  if (digits[0] === '0') return true;
  if (digits.length === 13 && digits[0] === '1') return true;
  return digits.length === 14 && /^(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:[01]\d|2[0-3])[0-5]\d[0-5]\d$/.test(digits);
}

function isCardNumber(digits: string): boolean {
  return digits.length >= MIN_DIGITS && digits.length <= MAX_DIGITS && !cannotBeCard(digits) && passesLuhn(digits);
}

/**
 * A run of digits inside a longer hexadecimal token (an event id `evt_` + 32 hex digits, a hash)
 * is part of that token: the letters around it say it is not a number someone wrote.
 */
function insideHexToken(text: string, start: number, end: number): boolean {
  let from = start;
  let to = end;
  while (from > 0 && /[0-9A-Za-z]/.test(text[from - 1]!)) from--;
  while (to < text.length && /[0-9A-Za-z]/.test(text[to]!)) to++;
  const token = text.slice(from, to);
  return token.length >= 24 && token.length > end - start && /^[0-9a-fA-F]+$/.test(token);
}

/** Every digit of the groups but the first six and the last four becomes `*`; separators stay. */
function maskMiddle(chars: string[], groups: readonly Group[], digitCount: number): void {
  let seen = 0;
  for (const group of groups) {
    for (let i = group.start; i < group.end; i++, seen++) {
      if (seen >= 6 && seen < digitCount - 4) chars[i] = '*';
    }
  }
}

interface Group {
  start: number;
  end: number;
}

/** The digit groups of a DIGIT_GROUPS match found at `offset`, as indexes into the whole text. */
function groupsOf(sequence: string, offset: number): Group[] {
  const groups: Group[] = [];
  let start = 0;
  for (const separator of sequence.matchAll(SEPARATOR)) {
    groups.push({ start: offset + start, end: offset + separator.index });
    start = separator.index + separator[0].length;
  }
  groups.push({ start: offset + start, end: offset + sequence.length });
  return groups;
}

const isSeparatorCode = (code: number) => code === 0x20 || code === 0x2b || code === 0x2d;

/**
 * False when the scan below would surely mask nothing, found in one pass over the characters with
 * no match object, array or closure: an order number, an event id, a pgCno or a time in a log
 * line (`ORD-1795710864513-1` holds an epoch-millisecond run, which the CANDIDATE regex let through
 * to the whole scan). Without a `%`, the scan's digit groups are the maximal runs of digits, and
 * it masks only a run of 13 to 19 digits that passes isCardNumber, or written groups (3 to 6
 * digits) joined by single separators, three at least (two hold 12 digits at most). A `%` brings
 * the percent-escape rules in: that rare text takes the regex pre-check.
 */
function mayHoldCard(text: string): boolean {
  if (text.includes('%')) return CANDIDATE.test(text);
  let runStart = -1;
  // Index just past the previous run, and how many written groups, joined one to the next, end there.
  let previousEnd = -2;
  let joinedWritten = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : -1;
    if (code >= 0x30 && code <= 0x39) {
      if (runStart < 0) runStart = i;
      continue;
    }
    if (runStart < 0) continue;
    const length = i - runStart;
    if (length >= MIN_DIGITS && length <= MAX_DIGITS && isCardNumber(text.slice(runStart, i))) return true;
    if (length >= MIN_GROUP && length <= MAX_GROUP) {
      const joined = runStart === previousEnd + 1 && isSeparatorCode(text.charCodeAt(previousEnd));
      joinedWritten = joined ? joinedWritten + 1 : 1;
      if (joinedWritten >= 3) return true;
    } else {
      joinedWritten = 0;
    }
    previousEnd = i;
    runStart = -1;
  }
  return false;
}

/** Every Luhn-valid card number in `text` with its middle digits masked; anything else as it was. */
export function maskCardNumbers(text: string): string {
  // Every log line's every text comes through here: most hold nothing that could be a card.
  if (text.length < MIN_DIGITS || !mayHoldCard(text)) return text;
  return scanCardNumbers(text);
}

/** maskCardNumbers without its pre-check: every digit sequence looked at (exported for its test). */
export function scanCardNumbers(text: string): string {
  let chars: string[] | null = null;
  const mask = (window: readonly Group[], digits: string) => {
    if (!isCardNumber(digits) || insideHexToken(text, window[0]!.start, window.at(-1)!.end)) return;
    // Code units, as the match indexes are.
    chars ??= text.split('');
    maskMiddle(chars, window, digits.length);
  };
  for (const run of text.matchAll(DIGIT_GROUPS)) {
    if (run[0].length < MIN_DIGITS) continue;
    const groups = groupsOf(run[0], run.index);
    const digitsOf = (group: Group) => text.slice(group.start, group.end);
    const written = (group: Group) => group.end - group.start >= MIN_GROUP && group.end - group.start <= MAX_GROUP;
    for (let first = 0; first < groups.length; first++) {
      const head = groups[first]!;
      // A long run is a number by itself; in a written sequence every group is short.
      if (head.end - head.start >= MIN_DIGITS) mask([head], digitsOf(head));
      if (!written(head)) continue;
      let digits = digitsOf(head);
      for (let last = first + 1; last < groups.length && written(groups[last]!); last++) {
        digits += digitsOf(groups[last]!);
        if (digits.length > MAX_DIGITS) break;
        mask(groups.slice(first, last + 1), digits);
      }
    }
  }
  return chars === null ? text : (chars as string[]).join('');
}

/** `name: value` and `name=value` in text (a form body, JSON inside a string) whose name is a card secret. */
const SECRET_PAIR = /(?<![\w-])(["']?)((?:cvc|cvv)2?|track[_-]?[12])\1(\s*[:=]\s*)(?:(["'])((?:\\.|(?!\4)[^\\])*)(\4|$)|([^&;,\r\n"'{}<>]*))/gi;

/** A card secret's value: every character but spaces and dashes becomes `*`. */
export function maskWhole(value: string): string {
  return value.replace(/[^\s-]/g, '*');
}

/** Card numbers, and the values of card-secret pairs, in any text. */
export function maskCardText(text: string): string {
  const numbersMasked = maskCardNumbers(text);
  if (!/cvc|cvv|track/i.test(numbersMasked)) return numbersMasked;
  return numbersMasked.replace(SECRET_PAIR, (_pair, keyQuote: string, key: string, separator: string, quote?: string, quoted?: string, close?: string, bare?: string) =>
    quote === undefined
      ? `${keyQuote}${key}${keyQuote}${separator}${maskWhole(bare ?? '')}`
      : `${keyQuote}${key}${keyQuote}${separator}${quote}${maskWhole(quoted ?? '')}${close ?? ''}`);
}

/**
 * A number value that is a card number (a body's bare number): as masked text. Integers of 13
 * digits starting with 1 (our own epoch-millisecond times) are not cards, as above.
 */
export function maskCardNumberValue(value: number | bigint): number | bigint | string {
  if (typeof value === 'number' && !Number.isInteger(value)) return value;
  const digits = value.toString();
  return /^\d+$/.test(digits) && isCardNumber(digits) ? maskCardNumbers(digits) : value;
}

/**
 * Card data masked in a value of any shape, every other field left as it is: for output that
 * must otherwise stay exact (the CLI's `--json`). Raw bodies (Buffers) are masked byte for byte:
 * digits and the names of card secrets are ASCII in UTF-8 and in EUC-KR alike, so a masked digit
 * never splits a character.
 */
export function maskCardData(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskCardText(value);
  if (typeof value === 'number' || typeof value === 'bigint') return maskCardNumberValue(value);
  if (value === null || typeof value !== 'object') return value;
  if (Buffer.isBuffer(value)) return maskCardBytes(value);
  if (depth > 64) return '<nested too deep to show>';
  if (Array.isArray(value)) return value.map((item) => maskCardData(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const masked = isCardSecretKey(key) && inner !== null ? maskSecretValue(inner) : maskCardData(inner, depth + 1);
    Object.defineProperty(out, maskCardNumbers(key), { value: masked, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Whatever a card-secret field holds: its text masked whole, a nested value reduced to a mark. */
export function maskSecretValue(value: unknown): unknown {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return maskWhole(String(value));
  return '<masked>';
}

function maskCardBytes(bytes: Buffer): Buffer {
  const text = bytes.toString('latin1');
  const masked = maskCardText(text);
  return masked === text ? bytes : Buffer.from(masked, 'latin1');
}
