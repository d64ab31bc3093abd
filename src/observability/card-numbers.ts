import { BREAK, DIGIT, isLineBreak, newUnit, OTHER, readUnit, SEPARATOR } from './digit-units';
import { amountSpans } from './written-amounts';

/**
 * Card data (PCI DSS): a card number is never shown whole, wherever it stands (a `shopValue1`, an
 * unknown field, JSON inside a string, a body that is not JSON, a log message), and the card's
 * secrets (its CVC, its magnetic tracks) are never shown at all. Found by value, not by name: a
 * number of 13 to 19 digits, as one run or in the groups people write (`4111 1111 1111 1111`,
 * `3782-822463-10005`, `4163.2332.1948.9632`, `４３３１…`), that passes the Luhn check: digits of
 * any script, and anything that is not a letter or a digit between the groups (digit-units.ts).
 * A card number stands within one line: groups are never joined across a line break. And a
 * formatted amount (`₩416,457,964`, `12,000원`, written-amounts.ts) is never part of one: its
 * digits are money an operator must read whole, and they break a run of groups as a word does.
 * At most its first six and last four digits stay, as PCI DSS allows. The scan is linear in the
 * text: a stored field of any length cannot stall the process that shows it.
 */

/** Fields that hold a card's secrets, in any case and nesting: masked whole, whatever they hold. */
const CARD_SECRET = /^(?:cvc|cvv)2?$|^track[_-]?[12]$/i;

export function isCardSecretKey(key: string): boolean {
  return CARD_SECRET.test(key);
}

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

/** Counts the scan's steps, for the test that its work grows with the text and no faster. */
export interface ScanSteps {
  steps: number;
}

/**
 * The text's digit units and the groups they make, in flat arrays: a group's first digit and the
 * one past its last (indexes into the digit arrays), and whether only separators (one or more)
 * stand between it and the group before.
 */
interface Scan {
  text: string;
  /** Each digit unit: its start in the text, its end, its value. */
  digitStart: number[];
  digitEnd: number[];
  digitValue: number[];
  groupFrom: number[];
  groupTo: number[];
  joined: boolean[];
}

/** One pass over the text's units: every digit, and the groups they make. */
function readGroups(text: string, bytes: boolean, counter?: ScanSteps): Scan {
  const scan: Scan = { text, digitStart: [], digitEnd: [], digitValue: [], groupFrom: [], groupTo: [], joined: [] };
  const unit = newUnit();
  const amounts = amountSpans(text, bytes);
  let amount = 0;
  let inGroup = false;
  // Since the last group ended: nothing but separators (and at least one).
  let gap: 'none' | 'separators' | 'broken' = 'broken';
  for (let at = 0; at < text.length; at += unit.length) {
    while (amount < amounts.length && amounts[amount + 1]! <= at) amount += 2;
    if (amount < amounts.length && amounts[amount]! <= at) {
      // An amount is read as one word: it ends the group before it and joins nothing.
      unit.kind = OTHER;
      unit.length = amounts[amount + 1]! - at;
    } else readUnit(text, at, unit, bytes);
    if (unit.kind === DIGIT) {
      if (!inGroup) {
        scan.groupFrom.push(scan.digitStart.length);
        scan.joined.push(gap === 'separators');
        inGroup = true;
      }
      scan.digitStart.push(at);
      scan.digitEnd.push(at + unit.length);
      scan.digitValue.push(unit.value);
    } else {
      if (inGroup) {
        scan.groupTo.push(scan.digitStart.length);
        inGroup = false;
        gap = 'none';
      }
      if (unit.kind === OTHER || unit.kind === BREAK) gap = 'broken';
      else if (gap === 'none') gap = 'separators';
    }
  }
  if (inGroup) scan.groupTo.push(scan.digitStart.length);
  if (counter) counter.steps += 2 * text.length;
  return scan;
}

const isAlphanumeric = (code: number) => (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
const isHex = (code: number) => (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x66);

/**
 * A run of digits inside a longer hexadecimal token (an event id `evt_` + 32 hex digits, a hash)
 * is part of that token: the letters around it say it is not a number someone wrote. Tokens are
 * read once each, however many runs they hold (`token` keeps the last one read).
 */
function insideHexToken(text: string, start: number, end: number, token: { from: number; to: number; hex: boolean }, counter?: ScanSteps): boolean {
  if (start < token.from || end > token.to) {
    let from = start;
    let to = end;
    while (from > 0 && isAlphanumeric(text.charCodeAt(from - 1))) from--;
    while (to < text.length && isAlphanumeric(text.charCodeAt(to))) to++;
    let hex = true;
    for (let i = from; i < to && hex; i++) hex = isHex(text.charCodeAt(i));
    Object.assign(token, { from, to, hex });
    if (counter) counter.steps += 2 * (to - from);
  }
  return token.hex && token.to - token.from >= 24 && token.to - token.from > end - start;
}

/**
 * Every Luhn-valid card number of the scan marked in `masked` (by digit index): a run of 13 to
 * 19 digits, or written groups of 3 to 6 digits joined by separators, 13 to 19 digits in all. A
 * window holds six groups at most, so each group starts a bounded number of them.
 */
function markCards(scan: Scan, masked: Uint8Array, counter?: ScanSteps): boolean {
  const { text, digitStart, digitEnd, digitValue, groupFrom, groupTo, joined } = scan;
  const token = { from: 0, to: 0, hex: false };
  const size = (group: number) => groupTo[group]! - groupFrom[group]!;
  const written = (group: number) => size(group) >= MIN_GROUP && size(group) <= MAX_GROUP;
  let any = false;
  const consider = (first: number, last: number) => {
    const from = groupFrom[first]!;
    const to = groupTo[last]!;
    let digits = '';
    for (let i = from; i < to; i++) digits += digitValue[i]!;
    if (counter) counter.steps += to - from;
    if (!isCardNumber(digits)) return;
    // Only a run of plain ASCII digits can be part of a hexadecimal token.
    const start = digitStart[from]!;
    const end = digitEnd[to - 1]!;
    if (first === last && end - start === to - from && insideHexToken(text, start, end, token, counter)) return;
    for (let i = from + 6; i < to - 4; i++) masked[i] = 1;
    any = true;
  };
  for (let first = 0; first < groupFrom.length; first++) {
    if (size(first) >= MIN_DIGITS && size(first) <= MAX_DIGITS) consider(first, first);
    if (!written(first)) continue;
    let total = size(first);
    for (let last = first + 1; last < groupFrom.length && joined[last] && written(last); last++) {
      total += size(last);
      if (total > MAX_DIGITS) break;
      if (total >= MIN_DIGITS) consider(first, last);
    }
  }
  return any;
}

/** The digits of the run being read by mayHoldCard (a card has 19 at most). */
const RUN = new Uint8Array(MAX_DIGITS);
const quickUnit = newUnit();

/**
 * False when the scan below would surely mask nothing, in one pass with no allocation: most log
 * lines and fields (ids, amounts, times) stop here. The scan masks only a run of 13 to 19 digits
 * that is a card number, or written groups (3 to 6 digits) joined by separators, three at least
 * (two hold 12 digits at most). It does not look for amounts: the scan leaves those out itself.
 */
function mayHoldCard(text: string, bytes = false): boolean {
  const unit = quickUnit;
  let run = 0;
  // Written groups joined one to the next up to the last one read, and what stood since it ended.
  let joinedWritten = 0;
  let gap: 'none' | 'separators' | 'broken' = 'broken';
  for (let at = 0; at <= text.length; at += unit.length) {
    const code = at < text.length ? text.charCodeAt(at) : -1;
    // ASCII that starts no escape, inline (readUnit's own fast path, without the call).
    if (code >= 0x30 && code <= 0x39) {
      if (run === 0 && gap !== 'separators') joinedWritten = 0;
      if (run < MAX_DIGITS) RUN[run] = code - 0x30;
      run++;
      unit.length = 1;
      continue;
    }
    // Hangul syllables, the rest of most texts here, are letters.
    if (code < 0 || (!bytes && code >= 0xac00 && code <= 0xd7a3)) {
      unit.kind = OTHER;
      unit.length = 1;
    } else if (code < 0x80 && code !== 0x25 && code !== 0x5c && code !== 0x26) {
      unit.kind = (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a ? OTHER : isLineBreak(code) ? BREAK : SEPARATOR;
      unit.length = 1;
    } else readUnit(text, at, unit, bytes);
    if (unit.kind === DIGIT) {
      if (run === 0 && gap !== 'separators') joinedWritten = 0;
      if (run < MAX_DIGITS) RUN[run] = unit.value;
      run++;
      continue;
    }
    if (run > 0) {
      if (run >= MIN_DIGITS && run <= MAX_DIGITS && isCardNumber(String.fromCharCode(...RUN.subarray(0, run).map((d) => d + 48)))) return true;
      joinedWritten = run >= MIN_GROUP && run <= MAX_GROUP ? joinedWritten + 1 : 0;
      if (joinedWritten >= 3) return true;
      run = 0;
      gap = 'none';
    }
    if (unit.kind === OTHER || unit.kind === BREAK) gap = 'broken';
    else if (gap === 'none') gap = 'separators';
  }
  return false;
}

/** Every Luhn-valid card number in `text` with its middle digits masked; anything else as it was. */
export function maskCardNumbers(text: string): string {
  return text.length >= MIN_DIGITS && mayHoldCard(text) ? scanCardNumbers(text) : text;
}

/**
 * maskCardNumbers without its pre-check (exported for its tests): one pass over the text's units,
 * then one over its digit groups; each masked digit, whatever it was written as, becomes one `*`.
 * `bytes`: the text is raw bytes read as latin1.
 */
export function scanCardNumbers(text: string, bytes = false, counter?: ScanSteps): string {
  const scan = readGroups(text, bytes, counter);
  const masked = new Uint8Array(scan.digitStart.length);
  if (!markCards(scan, masked, counter)) return text;
  let out = '';
  let copied = 0;
  for (let i = 0; i < masked.length; i++) {
    if (masked[i] === 0) continue;
    out += text.slice(copied, scan.digitStart[i]) + '*';
    copied = scan.digitEnd[i]!;
  }
  if (counter) counter.steps += text.length;
  return out + text.slice(copied);
}

/** `name: value` and `name=value` in text (a form body, JSON inside a string) whose name is a card secret. */
const SECRET_PAIR = /(?<![\w-])(["']?)((?:cvc|cvv)2?|track[_-]?[12])\1(\s*[:=]\s*)(?:(["'])((?:\\.|(?!\4)[^\\])*)(\4|$)|([^&;,\r\n"'{}<>]*))/gi;

/** A card secret's value: every character but spaces and dashes becomes `*`. */
export function maskWhole(value: string): string {
  return value.replace(/[^\s-]/g, '*');
}

/** Card numbers, and the values of card-secret pairs, in any text. */
export function maskCardText(text: string): string {
  return maskCardSecrets(maskCardNumbers(text));
}

function maskCardSecrets(numbersMasked: string): string {
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
  const masked = maskCardSecrets(text.length >= MIN_DIGITS && mayHoldCard(text, true) ? scanCardNumbers(text, true) : text);
  return masked === text ? bytes : Buffer.from(masked, 'latin1');
}
