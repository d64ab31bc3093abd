import { parse as parseMediaType } from 'content-type';
import express, { type RequestHandler } from 'express';
import { MAX_JSON_DEPTH, scanJson } from '../notifications/json-depth';
import { STRICT_UTF8 } from '../strict-utf8';
import { BodyTooLarge, InvalidBody, MalformedJson, UnsupportedBodyCharset } from './api-errors';

const JSON_TYPES = ['application/json', 'application/*+json'];

/** As deep as a notification may be: a VAN body passed through is the gateway's, a few levels at most. */
const MAX_BODY_DEPTH = MAX_JSON_DEPTH;

/**
 * The internal API's JSON body, read as bytes and decoded strictly: the express parser would
 * turn invalid UTF-8 (an EUC-KR `memo`) into U+FFFD and the gateway would be sent the garbage.
 * Refused instead, naming the field, as the notification side does.
 */
export function strictJsonBody(limitBytes: number): RequestHandler[] {
  const checkCharset: RequestHandler = (req, _res, next) => {
    if (!req.is(JSON_TYPES)) return next();
    // Refused before reading: the body parser would first read the whole declared body (10 MB at a
    // client's pace) only to refuse it; answered now, the listener closes the connection instead.
    if (Number(req.headers['content-length'] ?? 0) > limitBytes) throw new BodyTooLarge();
    const charset = charsetOf(req.headers['content-type']);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw new UnsupportedBodyCharset(charset);
    next();
  };
  const decode: RequestHandler = (req, _res, next) => {
    if (Buffer.isBuffer(req.body)) req.body = parseUtf8Json(req.body);
    next();
  };
  return [checkCharset, express.raw({ type: JSON_TYPES, limit: limitBytes }), decode];
}

function charsetOf(header: string | undefined): string | undefined {
  try {
    return header ? parseMediaType(header).parameters.charset?.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

function parseUtf8Json(raw: Buffer): unknown {
  let text: string;
  try {
    text = STRICT_UTF8.decode(raw);
  } catch {
    throw new InvalidBody([invalidUtf8Issue(raw)]);
  }
  // An empty body reads as {} (as the express parser did): the schema then names what is missing.
  if (text.trim() === '') return {};
  // Before parsing: thousands of levels overflow the stack of whatever walks the value (the body's hash, the record's JSON).
  if (scanJson(raw, Number.MAX_SAFE_INTEGER).depth > MAX_BODY_DEPTH) {
    throw new InvalidBody([{ path: '', message: `is nested deeper than ${MAX_BODY_DEPTH} levels; the gateway's bodies are a few levels deep` }]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new MalformedJson();
  }
}

/**
 * Where the first invalid byte is: the field whose text holds it when the body is otherwise
 * JSON, else its byte offset. The bytes themselves are never echoed (a memo is free text).
 */
function invalidUtf8Issue(raw: Buffer): { path: string; message: string } {
  const lenient = new TextDecoder('utf-8').decode(raw);
  let byte = 0;
  let index = 0;
  for (const char of lenient) {
    // A U+FFFD the caller really sent is three valid bytes; any other is where decoding failed.
    if (char === '\ufffd' && !(raw[byte] === 0xef && raw[byte + 1] === 0xbf && raw[byte + 2] === 0xbd)) break;
    byte += Buffer.byteLength(char, 'utf8');
    index += char.length;
  }
  const advice = 'send every text as UTF-8';
  const path = fieldAt(lenient, index);
  if (path === null) return { path: '', message: `is not valid UTF-8 at byte ${byte}; ${advice}` };
  return { path, message: `is not valid UTF-8 (byte ${byte}); ${advice}` };
}

/** The dotted path of the string (or field name) holding character `index`, or null when the body is not JSON there. */
function fieldAt(text: string, index: number): string | null {
  let marker = 0xe000;
  while (text.includes(String.fromCharCode(marker)) && marker < 0xf8ff) marker += 1;
  const mark = String.fromCharCode(marker);
  let parsed: unknown;
  try {
    parsed = JSON.parse(`${text.slice(0, index)}${mark}${text.slice(index + 1)}`);
  } catch {
    return null;
  }
  const find = (value: unknown, path: string[]): string[] | null => {
    if (typeof value === 'string') return value.includes(mark) ? path : null;
    if (value === null || typeof value !== 'object') return null;
    for (const [key, inner] of Object.entries(value)) {
      if (key.includes(mark)) return path;
      const found = find(inner, [...path, key]);
      if (found) return found;
    }
    return null;
  };
  const found = find(parsed, []);
  return found ? found.join('.') : null;
}
