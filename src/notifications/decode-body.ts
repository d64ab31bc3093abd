import { parse as parseMediaType } from 'content-type';
import iconv from 'iconv-lite';
import { scanJson, type JsonShape } from './json-depth';
import { KOREAN_CHARSET } from '../euc-kr';
import { InvalidNotification, UnsupportedMediaType } from '../errors';
import { maskFreeText } from '../observability/mask';
import { parseFormBody } from './form-urlencoded';
import { parseJsonExact } from './parse-json-exact';
import { STRICT_UTF8 } from '../strict-utf8';

/**
 * Raw bytes to fields. JSON is UTF-8 (events 10–51); a form body (event 70) is EUC-KR
 * unless its Content-Type names another charset. Nothing is parsed before the bytes are
 * known to be text in the declared charset.
 */
export function decodeBody(raw: Buffer, contentTypeHeader: string | undefined): Record<string, unknown> {
  const { type, charset } = parseContentType(contentTypeHeader);
  if (raw.length === 0) throw new InvalidNotification('empty body');
  if (type === 'application/json') return decodeJson(raw, charset, scanJson(raw));
  if (type === 'application/x-www-form-urlencoded') return parseFormBody(raw, formCharset(charset));
  throw new UnsupportedMediaType(`unsupported Content-Type ${shown(type)}; use application/json or application/x-www-form-urlencoded`);
}

function parseContentType(header: string | undefined): { type: string; charset: string | undefined } {
  if (!header) throw new UnsupportedMediaType('missing Content-Type');
  try {
    const parsed = parseMediaType(header);
    return { type: parsed.type, charset: parsed.parameters.charset?.toLowerCase() };
  } catch {
    throw new UnsupportedMediaType(`malformed Content-Type "${shown(header)}"`);
  }
}

function decodeJson(raw: Buffer, charset: string | undefined, shape: JsonShape): Record<string, unknown> {
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    throw new UnsupportedMediaType(`JSON must be UTF-8, not ${shown(charset)}`);
  }
  let text: string;
  try {
    text = STRICT_UTF8.decode(raw);
  } catch {
    throw new InvalidNotification('body is not valid UTF-8');
  }
  if (text.trim() === '') throw new InvalidNotification('empty body');
  const parsed = parseJsonExact(text, shape);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new InvalidNotification('body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** EUC-KR is decoded as CP949, its superset, so extended Hangul survives. */
function formCharset(charset: string | undefined): string {
  if (!charset || ['euc-kr', 'euckr', 'ks_c_5601-1987', 'cp949', 'x-windows-949', 'windows-949', 'uhc'].includes(charset)) {
    return KOREAN_CHARSET;
  }
  if (charset === 'utf-8' || charset === 'utf8') return 'utf-8';
  if (!iconv.encodingExists(charset)) throw new UnsupportedMediaType(`unsupported charset ${shown(charset)}`);
  return charset;
}

/** Header text quoted in a reason (resMsg, the log, rejections): short, and masked like free text. */
function shown(value: string): string {
  return maskFreeText(value.length > 100 ? `${value.slice(0, 100)}…` : value);
}
