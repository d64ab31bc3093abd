import iconv from 'iconv-lite';
import { KOREAN_CHARSET } from '../euc-kr';

/**
 * Text read as the card scan needs it: one unit at a time, each a decimal digit, a separator, a
 * line break or anything else. A card number can be written in any script's digits (`４３３１`, `٤٣٣١`) and with
 * anything between its groups that is not a letter or a digit (`.`, `/`, a no-break space, an en
 * dash, a tab, a zero-width space), and a body may hold it escaped as a form, JSON or HTML writes
 * it (`%2D`, `%EF%BC%94`, `\t`, `\uFF14`, `&nbsp;`): an escape is one unit, read as what it stands
 * for when that is a digit or a separator (as before, the digits of `%20` are the escape's). Raw bytes (a body as stored, read as latin1) are read as UTF-8 where they are, else as
 * EUC-KR (CP949), the gateway's form charset.
 */
export const OTHER = 0;
export const DIGIT = 1;
export const SEPARATOR = 2;
/**
 * A line break (LF, CR, VT, FF, NEL, U+2028, U+2029, or an escape of one): a card number is
 * written on one line, so what stands on the next line (a year, the next row's amount) is not
 * its continuation.
 */
export const BREAK = 3;

/** One unit: reused by the caller, so that reading a long text allocates nothing per character. */
export interface Unit {
  kind: number;
  /** A digit's value, 0 to 9. */
  value: number;
  /** Code units the unit spans in the text. */
  length: number;
}

export function newUnit(): Unit {
  return { kind: OTHER, value: 0, length: 1 };
}

const NOT_SEPARATOR = /[\p{L}\p{M}\p{N}]/u;
const DECIMAL = /\p{Nd}/u;

export function isLineBreak(codePoint: number): boolean {
  return (codePoint >= 0x0a && codePoint <= 0x0d) || codePoint === 0x85 || codePoint === 0x2028 || codePoint === 0x2029;
}

/** Non-ASCII code points seen, with their kind (and a digit's value in the bits above it). */
const KNOWN = new Map<number, number>();
const MAX_KNOWN = 4096;

/**
 * Unicode writes every script's digits 0 to 9 in a row of ten, rows one after another: a digit's
 * value is how many digits stand before it in its row, modulo ten.
 */
function decimalValue(codePoint: number): number {
  let before = 0;
  while (DECIMAL.test(String.fromCodePoint(codePoint - before - 1))) before++;
  return before % 10;
}

/** The kind of a code point, a digit's value times 4 added (see KNOWN). */
function classify(codePoint: number): number {
  if (isLineBreak(codePoint)) return BREAK;
  if (codePoint < 0x80) {
    if (codePoint >= 0x30 && codePoint <= 0x39) return DIGIT + (codePoint - 0x30) * 4;
    return (codePoint | 0x20) >= 0x61 && (codePoint | 0x20) <= 0x7a ? OTHER : SEPARATOR;
  }
  let known = KNOWN.get(codePoint);
  if (known === undefined) {
    const char = String.fromCodePoint(codePoint);
    known = DECIMAL.test(char) ? DIGIT + decimalValue(codePoint) * 4 : NOT_SEPARATOR.test(char) ? OTHER : SEPARATOR;
    if (KNOWN.size < MAX_KNOWN) KNOWN.set(codePoint, known);
  }
  return known;
}

function setKind(unit: Unit, kind: number, length: number): void {
  unit.kind = kind;
  unit.value = 0;
  unit.length = length;
}

function set(unit: Unit, codePoint: number, length: number): void {
  const known = classify(codePoint);
  unit.kind = known & 3;
  unit.value = known >> 2;
  unit.length = length;
}

/**
 * An escape is read as what it stands for only when that is a digit or a separator: `%41`, `\\u4111`
 * or `&#65;` before digits is a letter decoded, and a number to whoever reads the text as it stands.
 */
function setEscaped(unit: Unit, codePoint: number, length: number): boolean {
  set(unit, codePoint, length);
  return unit.kind !== OTHER;
}

function hexAt(text: string, at: number, digits: number): number {
  let value = 0;
  for (let i = at; i < at + digits; i++) {
    const code = text.charCodeAt(i);
    const digit = code >= 0x30 && code <= 0x39 ? code - 0x30 : (code | 0x20) >= 0x61 && (code | 0x20) <= 0x66 ? (code | 0x20) - 0x57 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** Bytes of a UTF-8 sequence, given its first byte; 0 when it cannot start one. */
function utf8Length(lead: number): number {
  return lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
}

/**
 * A UTF-8 sequence or an EUC-KR pair starting with byte `lead`, its further bytes read by
 * `byteAt(k)` (-1 past them): the code point and how many bytes it took, or null.
 */
function multiByte(lead: number, byteAt: (k: number) => number, decoded: { codePoint: number; bytes: number }): boolean {
  const count = utf8Length(lead);
  if (count > 0) {
    let codePoint = lead & (0xff >> (count + 1));
    let k = 1;
    for (; k < count; k++) {
      const next = byteAt(k);
      if (next < 0x80 || next > 0xbf) break;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if (k === count && codePoint >= [0, 0, 0x80, 0x800, 0x10000][count]! && codePoint <= 0x10ffff) {
      decoded.codePoint = codePoint;
      decoded.bytes = count;
      return true;
    }
  }
  const trail = byteAt(1);
  if (lead >= 0x81 && lead <= 0xfe && trail >= 0x41 && trail <= 0xfe) {
    decoded.codePoint = koreanPair(lead, trail);
    decoded.bytes = 2;
    return true;
  }
  return false;
}

const PAIRS = new Map<number, number>();

function koreanPair(lead: number, trail: number): number {
  const key = (lead << 8) | trail;
  let codePoint = PAIRS.get(key);
  if (codePoint === undefined) {
    codePoint = iconv.decode(Buffer.from([lead, trail]), KOREAN_CHARSET).codePointAt(0) ?? 0xfffd;
    if (PAIRS.size < MAX_KNOWN) PAIRS.set(key, codePoint);
  }
  return codePoint;
}

const decoded = { codePoint: 0, bytes: 0 };

/** `%XX`, or a run of them that is one UTF-8 or EUC-KR character: false when `at` starts none. */
function percentEscape(text: string, at: number, unit: Unit): boolean {
  const first = hexAt(text, at + 1, 2);
  if (first < 0) return false;
  if (first < 0x80) return setEscaped(unit, first, 3);
  const byteAt = (k: number) => (text.charCodeAt(at + 3 * k) === 0x25 ? hexAt(text, at + 3 * k + 1, 2) : -1);
  // A character of several bytes is one unit whatever it is: its escapes cannot be read otherwise.
  if (multiByte(first, byteAt, decoded)) set(unit, decoded.codePoint, 3 * decoded.bytes);
  else setKind(unit, OTHER, 3);
  return true;
}

/**
 * JSON's escapes: `\t`, `\n`, `\/`, `\u00a0`, `\uD835\uDFD2`, behind
 * any number of backslashes, since text escaped twice (JSON inside a JSON string) doubles them.
 */
function backslashEscape(text: string, at: number, unit: Unit): boolean {
  let end = at + 1;
  while (text.charCodeAt(end) === 0x5c) end++;
  const next = text.charCodeAt(end);
  if (next === 0x75 /* u */) {
    const high = hexAt(text, end + 1, 4);
    if (high >= 0) {
      const low = high >= 0xd800 && high <= 0xdbff && text.charCodeAt(end + 5) === 0x5c ? lowSurrogateAfter(text, end + 5) : null;
      if (low !== null ? setEscaped(unit, 0x10000 + ((high - 0xd800) << 10) + (low.value - 0xdc00), low.end - at) : setEscaped(unit, high, end + 5 - at)) return true;
    }
  }
  // An escaped control or quote, or backslashes before anything else: nothing a number is made of.
  const escapedChar = text[end] ?? 'x';
  if ('nrfv'.includes(escapedChar)) setKind(unit, BREAK, end + 1 - at);
  else setKind(unit, SEPARATOR, 'tb0/"\''.includes(escapedChar) ? end + 1 - at : end - at);
  return true;
}

/** `\\uDC..` (behind any number of backslashes) at `at`: its value and where it ends, or null. */
function lowSurrogateAfter(text: string, at: number): { value: number; end: number } | null {
  let end = at;
  while (text.charCodeAt(end) === 0x5c) end++;
  if (text.charCodeAt(end) !== 0x75) return null;
  const value = hexAt(text, end + 1, 4);
  return value >= 0xdc00 && value <= 0xdfff ? { value, end: end + 5 } : null;
}

/** HTML's character references that can stand between digit groups or for a digit. */
const NAMED = /^&(?:nbsp|ensp|emsp|emsp13|emsp14|thinsp|hairsp|numsp|puncsp|ndash|mdash|minus|hyphen|dash|period|sol|bsol|comma|colon|semi|lowbar|plus|verbar|vert|tab|newline|sp);/i;

function characterReference(text: string, at: number, unit: Unit): boolean {
  if (text.charCodeAt(at + 1) === 0x23 /* # */) {
    const hex = (text.charCodeAt(at + 2) | 0x20) === 0x78;
    let end = at + (hex ? 3 : 2);
    const start = end;
    while (end < text.length && end - start < 7 && /[0-9A-Fa-f]/.test(text[end]!)) end++;
    const codePoint = Number.parseInt(text.slice(start, end), hex ? 16 : 10);
    if (end === start || text.charCodeAt(end) !== 0x3b || !(codePoint <= 0x10ffff) || (!hex && /[^0-9]/.test(text.slice(start, end)))) return false;
    return setEscaped(unit, codePoint, end + 1 - at);
  }
  const named = NAMED.exec(text.slice(at, at + 10));
  if (!named) return false;
  setKind(unit, /^&newline;$/i.test(named[0]) ? BREAK : SEPARATOR, named[0].length);
  return true;
}

/** Reads the unit at `at` of a text (`bytes`: a latin1 string holding raw bytes) into `unit`. */
export function readUnit(text: string, at: number, unit: Unit, bytes = false): void {
  const code = text.charCodeAt(at);
  // Most of any text: ASCII that starts no escape, read here without a call.
  if (code < 0x80 && code !== 0x25 && code !== 0x5c && code !== 0x26) {
    const digit = code >= 0x30 && code <= 0x39;
    unit.kind = digit ? DIGIT : (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a ? OTHER : isLineBreak(code) ? BREAK : SEPARATOR;
    unit.value = digit ? code - 0x30 : 0;
    unit.length = 1;
    return;
  }
  if (code === 0x25 /* % */ && percentEscape(text, at, unit)) return;
  if (code === 0x5c /* \ */ && backslashEscape(text, at, unit)) return;
  if (code === 0x26 /* & */ && characterReference(text, at, unit)) return;
  if (code < 0x80) return set(unit, code, 1);
  if (!bytes && code >= 0xac00 && code <= 0xd7a3) return setKind(unit, OTHER, 1);
  if (bytes) {
    if (multiByte(code, (k) => (at + k < text.length ? text.charCodeAt(at + k) : -1), decoded)) set(unit, decoded.codePoint, decoded.bytes);
    else setKind(unit, OTHER, 1);
    return;
  }
  const codePoint = text.codePointAt(at)!;
  set(unit, codePoint, codePoint > 0xffff ? 2 : 1);
}
