import fc from 'fast-check';
import { passesLuhn } from '../../src/observability/card-numbers';

/** Card numbers as people, forms, JSON and HTML write them: the cases of issue 35, item 7. */

/**
 * What may stand between two groups on one line: one of these, or a run of them. A line break
 * is not one (a card number is written on one line): LINE_BREAKS.
 */
export const SEPARATORS = [
  '.', '/', ' ', '  ', '-', '\u00a0', '\u2013', '\u2014', '\u2212', '\t', '_', ',', ', ', ':', '·', '|', '~', '=',
  '\u200b', '\u3000', '\u2009', '\uff0d', '\uff0e', '\u00ad', '\u202f', '+',
  // As a form, JSON and HTML escape them.
  '%2D', '%20', '%2E', '%2F', '%09', '%C2%A0', '%E2%80%93', '%A1%A1', '\\t', '\\\\t', '\\\\u00a0', '\\u00a0', '\\u2013', '&nbsp;', '&#45;', '&#x2013;',
];

/** Line breaks, as they stand and as a form, JSON and HTML escape them: a card's groups are never joined across one. */
export const LINE_BREAKS = ['\n', '\r\n', '\r', '\u2028', '\u2029', '\u0085', '\f', '%0A', '%0D%0A', '\\n', '\\r\\n', '\\\\n', '\\u000a', '&#10;', '&#xA;', '&NewLine;'];

/** How a digit d may be written: any script's decimal digits, and the escapes of some. */
export const DIGIT_KINDS: Record<string, (d: number) => string> = {
  ascii: (d) => String(d),
  'full-width': (d) => String.fromCharCode(0xff10 + d),
  'arabic-indic': (d) => String.fromCharCode(0x0660 + d),
  devanagari: (d) => String.fromCharCode(0x0966 + d),
  'mathematical bold': (d) => String.fromCodePoint(0x1d7ce + d),
  'percent ascii': (d) => `%3${d}`,
  'percent UTF-8 full-width': (d) => encodeURIComponent(String.fromCharCode(0xff10 + d)),
  'percent EUC-KR full-width': (d) => `%A3%B${d}`,
  'JSON escape full-width': (d) => `\\uff1${d}`,
  'HTML reference': (d) => `&#${48 + d};`,
};

/** The check digit that makes `body` + it pass the Luhn check. */
function withCheckDigit(body: string): string {
  for (let d = 0; d <= 9; d++) if (passesLuhn(`${body}${d}`)) return `${body}${d}`;
  throw new Error('unreachable');
}

/** How card numbers are written, by length: the groups on the card. */
const LAYOUTS: Record<number, number[]> = { 13: [4, 4, 5], 14: [4, 6, 4], 15: [4, 6, 5], 16: [4, 4, 4, 4], 17: [4, 4, 4, 5], 18: [4, 4, 4, 6], 19: [4, 4, 4, 4, 3] };

export const cardDigits = fc
  .tuple(fc.integer({ min: 13, max: 19 }), fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }))
  .map(([length, first, rest]) => withCheckDigit(`${first}${rest.slice(0, length - 2).join('')}`))
  // What cannot be a card (an epoch-millisecond time, a yyyyMMddHHmmss time) is left readable on purpose.
  .filter((digits) => !(digits.length === 13 && digits[0] === '1') && !(digits.length === 14 && /^(19|20)/.test(digits)));

export interface WrittenCard {
  digits: string;
  /** The card as written. */
  written: string;
  /** The same with the digits PCI DSS hides (all but the first six and the last four) as `*`. */
  masked: string;
}

/** A card's digits as pieces, each digit in its own kind, the groups joined by their own run of separators (or none). */
export function writeCard(digits: string, kinds: string[], gaps: string[][] | null): WrittenCard {
  let written = '';
  let masked = '';
  let at = 0;
  const layout = gaps === null ? [digits.length] : LAYOUTS[digits.length]!;
  layout.forEach((size, group) => {
    if (group > 0) {
      const gap = gaps![(group - 1) % gaps!.length]!.join('');
      written += gap;
      masked += gap;
    }
    for (let i = at; i < at + size; i++) {
      const piece = DIGIT_KINDS[kinds[i % kinds.length]!]!(Number(digits[i]));
      written += piece;
      masked += i >= 6 && i < digits.length - 4 ? '*' : piece;
    }
    at += size;
  });
  return { digits, written, masked };
}

