/**
 * Amounts as people and this service write them (`₩416,457,964`, `12,000원`, `$1,234.56`,
 * `US$12.03`, `KRW 30,000`, `1,000,000`): where they stand in a text, so that no masking reads
 * one as a card or account number. An operator reconciling money must read every figure whole,
 * and an amount's digit groups next to the next line's year or the next column's figure are not
 * a card number, however the Luhn check comes out.
 *
 * What counts as an amount (its digits, commas and points ASCII or full-width, `￦４１６，４５７`):
 * - a number grouped in thousands (`1,234`, `416,457,964.50`), with or without a currency: groups
 *   of exactly three after the first, joined by one comma each, which no card is written in;
 * - a plain number (`12000`, `12.03`, twelve integer digits at most: card numbers have 13 to 19)
 *   right after a currency sign or code, or right before one (`12000원`), unless its far end
 *   could be a card's group (3 to 6 digits) and another group stands beyond it through separators
 *   only (`$4111 1111 1111 1111` is a card after a dollar sign, and is masked as one).
 */

/** A space a formatted amount may have between its currency and its number: never a line break. */
const GAP = '[ \\u00a0\\u202f]?';
const SIGN = '[-\\u2212]?';
/** Digits, commas and points: ASCII, or full-width (`￦４１６，４５７`) in a text. */
interface Marks {
  digit: string;
  comma: string;
  point: string;
}

const TEXT_MARKS: Marks = { digit: '[0-9\\uff10-\\uff19]', comma: '[,\\uff0c]', point: '[.\\uff0e]' };
/** In raw bytes: ASCII, or full-width in UTF-8 (EF BC 90…) or in EUC-KR (A3 B0…). */
const BYTE_MARKS: Marks = {
  digit: '(?:[0-9]|\\xef\\xbc[\\x90-\\x99]|\\xa3[\\xb0-\\xb9])',
  comma: '(?:,|\\xef\\xbc\\x8c|\\xa3\\xac)',
  point: '(?:\\.|\\xef\\xbc\\x8e|\\xa3\\xae)',
};

interface Patterns {
  /** A currency sign or code, then the number: group 1 the currency, 2 a grouped number, 3 a plain one. */
  prefixed: RegExp;
  /** The number, then its currency: 1 grouped, 2 plain, 3 the currency. */
  suffixed: RegExp;
  grouped: RegExp;
}

function patterns(symbols: string, won: string, flags: string, { digit: d, comma, point }: Marks): Patterns {
  // Decimals: a currency has four at most, and more are not money.
  const grouped = `${d}{1,3}(?:${comma}${d}{3})+(?!${d})(?:${point}${d}{1,4}(?!${d}))?`;
  const plain = `${d}{1,12}(?:${point}${d}{1,4})?(?!${d})`;
  // A number starts where no digit, comma or point stands before it (so the scan starts once per number).
  const numberStart = `(?<!${d}|${comma}|${point})`;
  const currency = `(${symbols}|(?<![A-Za-z])[A-Z]{3}(?=${GAP}${SIGN}${d}))`;
  return {
    prefixed: new RegExp(`${currency}${GAP}${SIGN}(?:(${grouped})|(${plain}))`, `g${flags}`),
    suffixed: new RegExp(`${numberStart}${SIGN}(?:(${grouped})|(${plain}))${GAP}(${won}|${symbols}|[A-Z]{3}(?![A-Za-z])|won(?![A-Za-z]))`, `g${flags}`),
    grouped: new RegExp(`${numberStart}${grouped}(?!(?:${comma}|${point})${d})`, `g${flags}`),
  };
}

/** Currency signs as raw bytes (a stored body read as latin1): in UTF-8, and the EUC-KR won sign. */
const latin1 = (text: string, encoding: BufferEncoding = 'utf8') => Buffer.from(text, encoding).toString('latin1');
const escapeForPattern = (text: string) => [...text].map((ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
const BYTE_SYMBOLS = ['₩', '￦', '€', '¥', '£'].map((sign) => escapeForPattern(latin1(sign))).concat(['\\$', '\\xa3\\xdc']).join('|');
const BYTE_WON = [escapeForPattern(latin1('원')), '\\xbf\\xf8'].join('|');

/** One pass that most texts stop at: no currency sign, no 원, no code before a number, no comma between digits. */
const MAY_HOLD = /[\p{Sc}원]|[0-9\uff10-\uff19][,\uff0c][0-9\uff10-\uff19]|[A-Z]{3}[ \u00a0\u202f]?[-\u2212]?[0-9\uff10-\uff19]|\d[ \u00a0\u202f]?won/u;
const MAY_HOLD_BYTES = new RegExp(`[$\\x80-\\xff]|\\d,\\d|[A-Z]{3}[ ]?-?\\d|\\d ?won`);

const TEXT = patterns('(?:[A-Z]{1,3})?\\p{Sc}', '원', 'u', TEXT_MARKS);
const BYTES = patterns(`(?:[A-Z]{1,3})?(?:${BYTE_SYMBOLS})`, BYTE_WON, '', BYTE_MARKS);

/** The code point ending just before `at` and where it starts (a surrogate pair is one). */
function startBefore(text: string, at: number): number {
  const low = text.charCodeAt(at - 1);
  const high = text.charCodeAt(at - 2);
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? at - 2 : at - 1;
}

type Reading = 'digit' | 'separator' | 'other';

/** What the character at `at` is to a digit group: a letter, a mark or a line break ends the separators between two. */
function readingAt(text: string, at: number, bytes: boolean): Reading {
  const code = text.charCodeAt(at);
  if (code >= 0x30 && code <= 0x39) return 'digit';
  if (code >= 0x0a && code <= 0x0d) return 'other';
  if (code < 0x80) return (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a ? 'other' : 'separator';
  // A raw byte above ASCII may be part of any character: read as a separator, so that a number
  // beside it is taken for a group (and masked if a card) rather than for an amount.
  if (bytes) return 'separator';
  const char = String.fromCodePoint(text.codePointAt(at)!);
  if (/\p{Nd}/u.test(char)) return 'digit';
  return /[\p{L}\p{M}\p{N}\u0085\u2028\u2029]/u.test(char) ? 'other' : 'separator';
}

/** Whether a digit group stands after `from` (step 1) or before it (step -1), only separators between. */
function groupBeyond(text: string, from: number, step: 1 | -1, bytes: boolean): boolean {
  let at = from;
  for (;;) {
    if (step === 1 ? at >= text.length : at <= 0) return false;
    const char = step === 1 ? at : bytes ? at - 1 : startBefore(text, at);
    const reading = readingAt(text, char, bytes);
    if (reading !== 'separator') return reading === 'digit';
    at = step === 1 ? char + (text.codePointAt(char)! > 0xffff && !bytes ? 2 : 1) : char;
  }
}

/** Digits a card written in groups may have as one of them. */
const mayBeGroup = (digits: string) => digits.length >= 3 && digits.length <= 6;

/** ISO 4217 as the runtime knows it: Intl formats any three letters, so it cannot tell `PAN` from `KRW`. */
const CODES = new Set(Intl.supportedValuesOf('currency'));

/** A three-letter code is a currency only when ISO lists it (`PAN 4111…`, `ORD-1.4111…` are no amounts). */
function isCurrency(code: string): boolean {
  return !/^[A-Z]{3}$/.test(code) || CODES.has(code);
}

/**
 * The amounts in `text` as a flat list of [start, end) offsets, in order and not overlapping.
 * `bytes`: the text is raw bytes read as latin1; `marked`: only amounts with a currency. Linear in the text: each pattern starts once per
 * number, and the look for a group beyond a plain number walks only the separators after it.
 */
export function amountSpans(text: string, bytes = false, marked = false): number[] {
  if (!(bytes ? MAY_HOLD_BYTES : MAY_HOLD).test(text)) return [];
  const { prefixed, suffixed, grouped } = bytes ? BYTES : TEXT;
  const found: Array<[number, number]> = [];
  for (const m of text.matchAll(prefixed)) {
    const currency = m[1]!;
    if (!isCurrency(currency)) continue;
    const end = m.index + m[0].length;
    if (m[3] !== undefined && mayBeGroup(m[3].split(/[.\uff0e]/).at(-1)!) && groupBeyond(text, end, 1, bytes)) continue;
    found.push([m.index, end]);
  }
  for (const m of text.matchAll(suffixed)) {
    if (!isCurrency(m[3]!)) continue;
    if (m[2] !== undefined && mayBeGroup(m[2].split(/[.\uff0e]/)[0]!) && groupBeyond(text, m.index, -1, bytes)) continue;
    found.push([m.index, m.index + m[0].length]);
  }
  if (!marked) for (const m of text.matchAll(grouped)) found.push([m.index, m.index + m[0].length]);
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const spans: number[] = [];
  for (const [start, end] of found) {
    const last = spans.length - 1;
    if (spans.length > 0 && start <= spans[last]!) spans[last] = Math.max(spans[last]!, end);
    else spans.push(start, end);
  }
  return spans;
}

/**
 * The text cut at its amounts: `mask` sees every piece between them, the amounts stay as written.
 * `marked`: only amounts with a currency count (in a field named for a card or an account, digits
 * in thousands groups may be the number itself).
 */
export function outsideAmounts(text: string, mask: (piece: string) => string, marked = false): string {
  const spans = amountSpans(text, false, marked);
  if (spans.length === 0) return mask(text);
  let out = '';
  let copied = 0;
  for (let i = 0; i < spans.length; i += 2) {
    out += mask(text.slice(copied, spans[i])) + text.slice(spans[i], spans[i + 1]);
    copied = spans[i + 1]!;
  }
  return out + mask(text.slice(copied));
}
