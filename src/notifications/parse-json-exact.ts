import { parse } from 'lossless-json';
import { InvalidNotification } from '../errors';
import type { JsonShape } from './json-depth';

/**
 * JSON text to an object without losing a digit. The gateway documents every field as a
 * string, but a bare number must not be rounded by `JSON.parse` (a 20-digit `pgCno` would
 * merge two payments): each number is kept as its source text, so it is read downstream
 * exactly as if it had been quoted.
 *
 * A syntax error is reported by position only. The parser's own message quotes the body
 * around the fault, and that text (a depositor's name, an account number) would reach the
 * gateway's `resMsg`, the log and `rejections.reason`.
 */
export function parseJsonExact(text: string, shape?: JsonShape): unknown {
  const plain = shape && parsedPlainly(text, shape);
  if (plain) return plain;
  try {
    return parse(text, null, (digits: string) => digits);
  } catch (error) {
    throw new InvalidNotification(describeSyntaxError(text, error));
  }
}

/**
 * The gateway's own bodies, a flat object of strings, read by the native parser (several times
 * faster than the lossless one, and the hot path's largest parsing cost): with no bare number
 * there is nothing to round, and a field count equal to the colons seen proves no name repeats
 * (`JSON.parse` would silently keep the last one). Anything else, or any doubt, is left to
 * lossless parsing, which also words every error.
 */
function parsedPlainly(text: string, shape: JsonShape): Record<string, unknown> | null {
  if (shape.depth !== 1 || shape.bareNumber || text.includes('__proto__')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  return Object.keys(value).length === shape.topLevelFields ? (value as Record<string, unknown>) : null;
}

function describeSyntaxError(text: string, error: unknown): string {
  // A stack overflow in the recursive parser means nesting no real notification has.
  if (error instanceof RangeError) return 'malformed JSON: nested too deeply';
  const message = error instanceof Error ? error.message : '';
  const index = Number(/at position (\d+)/.exec(message)?.[1] ?? Number.NaN);
  const what = /^Duplicate key/.test(message)
    ? 'a field name repeats with another value'
    : /reached end of input/.test(message)
      ? 'the body ends too early'
      : 'unexpected character';
  if (!Number.isInteger(index)) return `malformed JSON: ${what}`;
  return `malformed JSON: ${what} at ${where(text, index)}`;
}

/** Line, column and byte offset: enough to find the fault in the kept raw body. */
function where(text: string, index: number): string {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  const column = index - before.lastIndexOf('\n');
  return `line ${line}, column ${column} (byte ${Buffer.byteLength(before, 'utf8')})`;
}
