import { maskSensitive } from '../observability/mask';

/**
 * Text a notification controls (a mall id, an order number), as an alert may show it: a chat
 * channel and a mailbox are read by people who act on what they see, so such text must not
 * forge a line (`\nresolved by kim`), reorder one (a bidi override), or carry personal data.
 *
 * Control characters go first: a line break or a tab (CR, LF, NEL, U+2028, U+2029, …) becomes one
 * space, any other (NUL, ESC, C1) and every invisible format character (the bidi marks,
 * embeddings, overrides and isolates, a zero-width space, a byte order mark) goes. Then
 * the field is masked as the console's pages mask it: in that order, so that a card number split
 * by a line feed (`4111 1111\n1111 1111`), or one with a NUL in it, is found once on one line.
 * Escaping for a channel's markup is the channel's (alert-channels.ts).
 */
const SPACES = /[\t\n\v\f\r\x1c-\x1f\x85\u2028\u2029]+/g;
const CONTROLS = /[\p{Cc}\p{Cf}]/gu;

export function shownField(field: 'mallId' | 'shopOrderNo', value: string): string {
  const plain = value.replace(SPACES, ' ').replace(CONTROLS, '');
  const masked = (maskSensitive({ [field]: plain }) as Record<string, unknown>)[field];
  return typeof masked === 'string' ? masked : plain;
}

/** Whether a field shows as it is stored: only then can a link name it (a masked order number finds no order). */
export function shownAsStored(field: 'mallId' | 'shopOrderNo', value: string): boolean {
  return shownField(field, value) === value;
}
