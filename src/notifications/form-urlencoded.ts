import iconv from 'iconv-lite';
import { InvalidNotification } from '../errors';
import { shownFieldName } from '../observability/mask';
import { STRICT_UTF8 } from '../strict-utf8';

/**
 * Parses an `application/x-www-form-urlencoded` body in a legacy charset. Percent-escapes
 * are turned into bytes first and only then decoded with the body's charset: decoding the
 * escapes as UTF-8 (what express.urlencoded does) turns EUC-KR Hangul into garbage.
 * The first occurrence of a repeated name wins, as in the servlet API the gateway targets.
 */
export function parseFormBody(body: Buffer, charset: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const pair of splitBytes(body, 0x26 /* & */)) {
    if (pair.length === 0) continue;
    const eq = pair.indexOf(0x3d /* = */);
    const name = decodeText(percentDecode(eq === -1 ? pair : pair.subarray(0, eq)), charset, 'field name');
    const value = eq === -1 ? '' : decodeText(percentDecode(pair.subarray(eq + 1)), charset, shownFieldName(name));
    if (Object.hasOwn(fields, name)) continue;
    // Assigning `__proto__` would set the object's prototype instead of adding a field, and `in`
    // would see `constructor` and friends on Object.prototype: both are fields like any other here.
    if (name === '__proto__') Object.defineProperty(fields, name, { value, enumerable: true, writable: true, configurable: true });
    else fields[name] = value;
  }
  return fields;
}

function splitBytes(body: Buffer, separator: number): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i <= body.length; i += 1) {
    if (i === body.length || body[i] === separator) {
      parts.push(body.subarray(start, i));
      start = i + 1;
    }
  }
  return parts;
}

/**
 * Charsets whose bytes 0x00-0x7F are ASCII. Others a form may name (UTF-16, say) are decoded
 * in full; the receiver's own default, CP949, and UTF-8 are here.
 */
const ASCII_COMPATIBLE = new Set(['cp949', 'euc-kr', 'utf-8', 'iso-8859-1', 'latin1', 'windows-1252', 'us-ascii', 'ascii']);

/** The value of one hex digit's byte, or -1. */
function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

/** `+` is a space; `%XY` is one byte; a stray `%` stays literal (WHATWG form parsing). */
function percentDecode(bytes: Buffer): Buffer {
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const b = bytes[i]!;
    const high = b === 0x25 && i + 2 < bytes.length ? hexValue(bytes[i + 1]!) : -1;
    const low = high === -1 ? -1 : hexValue(bytes[i + 2]!);
    if (b === 0x2b) {
      out[n++] = 0x20;
    } else if (low !== -1) {
      out[n++] = high * 16 + low;
      i += 2;
    } else {
      out[n++] = b;
    }
  }
  return out.subarray(0, n);
}

/** ASCII reads the same in every charset a form may name (EUC-KR/CP949 and UTF-8 included). */
function isAscii(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i += 1) if (bytes[i]! > 0x7f) return false;
  return true;
}

function decodeText(bytes: Buffer, charset: string, what: string): string {
  // Most names and values (codes, amounts, dates) are ASCII: no decoder needed, the common case.
  if (ASCII_COMPATIBLE.has(charset) && isAscii(bytes)) return bytes.toString('latin1');
  if (charset === 'utf-8') {
    try {
      return STRICT_UTF8.decode(bytes);
    } catch {
      throw new InvalidNotification(`${what}: not valid UTF-8`);
    }
  }
  const text = iconv.decode(bytes, charset);
  // iconv-lite substitutes U+FFFD for byte sequences the charset does not define; EUC-KR
  // itself cannot encode U+FFFD, so its presence proves the bytes were not EUC-KR.
  if (text.includes('\ufffd')) throw new InvalidNotification(`${what}: bytes are not valid ${charset.toUpperCase()}`);
  return text;
}
