import iconv from 'iconv-lite';
import { InvalidNotification } from '../errors';
import { shownFieldName } from '../observability/mask';

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
    if (!(name in fields)) fields[name] = value;
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

const HEX = /^[0-9a-fA-F]{2}$/;

/** `+` is a space; `%XY` is one byte; a stray `%` stays literal (WHATWG form parsing). */
function percentDecode(bytes: Buffer): Buffer {
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const b = bytes[i]!;
    if (b === 0x2b) {
      out[n++] = 0x20;
    } else if (b === 0x25 && i + 2 < bytes.length && HEX.test(bytes.toString('latin1', i + 1, i + 3))) {
      out[n++] = Number.parseInt(bytes.toString('latin1', i + 1, i + 3), 16);
      i += 2;
    } else {
      out[n++] = b;
    }
  }
  return out.subarray(0, n);
}

function decodeText(bytes: Buffer, charset: string, what: string): string {
  if (charset === 'utf-8') {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
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
