import { rowIdOf } from '../row-id';
import { InvalidBody } from './api-errors';

/** A page's `next`: where it ended, opaque to the caller (base64url of JSON). */
export function encodeCursor(position: object | null): string | null {
  return position === null ? null : Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

const notACursor = () => new InvalidBody([{ path: 'after', message: "is not a cursor this service gave: pass the previous answer's next" }]);

/** The position a `next` named; a cursor this service did not make is a 400, not a guess. */
export function decodeCursor<T extends Record<string, string>>(text: string | undefined, fields: ReadonlyArray<keyof T & string>): T | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (fields.every((field) => typeof value[field] === 'string')) return Object.fromEntries(fields.map((f) => [f, value[f]])) as T;
  } catch {
    // answered below
  }
  throw notACursor();
}

/** An order list's `next`: the last order's order_id (the list's order), as text so JSON keeps it exact. */
export const encodeOrderCursor = (last: number | null): string | null => encodeCursor(last === null ? null : { orderId: String(last) });

export function decodeOrderCursor(text: string | undefined): number | undefined {
  const position = decodeCursor<{ orderId: string }>(text, ['orderId']);
  if (position === undefined) return undefined;
  const orderId = rowIdOf(position.orderId);
  if (orderId === null) throw notACursor();
  return orderId;
}
