import fc from 'fast-check';
import { maskCardNumbers, passesLuhn, scanCardNumbers, type ScanSteps } from '../../src/observability/card-numbers';

/**
 * Issue 35, item 8: one stored field of 40 KB (`a4111111111111111` repeated) stalled the process
 * for seconds, because the card scan read the whole token again for each number in it. The scan
 * must do work in proportion to its input: checked by counting its steps, not by timing, and
 * checked to mask exactly what a plain, slow reading of the rule masks.
 */

/** The rule, read as plainly as it is written: every window of joined groups tried, every token read again. */
function reference(text: string): string {
  // Units of the texts generated below: %2D and %20, or one code point.
  const units = [...text.matchAll(/%2D|%20|[\s\S]/gu)].map((m) => ({ at: m.index, text: m[0] }));
  const digitOf = (unit: string) => (/^[0-9]$/.test(unit) ? Number(unit) : /^[\uff10-\uff19]$/.test(unit) ? unit.charCodeAt(0) - 0xff10 : -1);
  // A line break ends a run of groups as a letter does: a card number is written on one line.
  const isSeparator = (unit: string) => unit.length === 3 || !/[\p{L}\p{M}\p{N}\n\r]/u.test(unit);
  const groups: Array<{ digits: number[]; starts: number[]; ends: number[]; joined: boolean }> = [];
  let gap: 'none' | 'separators' | 'broken' = 'broken';
  let current: (typeof groups)[number] | null = null;
  for (const unit of units) {
    const digit = digitOf(unit.text);
    if (digit >= 0) {
      if (!current) groups.push((current = { digits: [], starts: [], ends: [], joined: gap === 'separators' }));
      current.digits.push(digit);
      current.starts.push(unit.at);
      current.ends.push(unit.at + unit.text.length);
      continue;
    }
    if (current) gap = 'none';
    current = null;
    gap = !isSeparator(unit.text) ? 'broken' : gap === 'none' ? 'separators' : gap;
  }
  const hide = new Set<number>();
  for (let first = 0; first < groups.length; first++) {
    let count = 0;
    for (let last = first; last < groups.length; last++) {
      // A longer window only holds more digits, and joined groups end at the first that is not.
      count += groups[last]!.digits.length;
      if (count > 19 || (last > first && !groups[last]!.joined)) break;
      const window = groups.slice(first, last + 1);
      if (window.length > 1 && window.some((g) => g.digits.length < 3 || g.digits.length > 6)) continue;
      const digits = window.flatMap((g) => g.digits).join('');
      if (digits.length < 13 || digits.length > 19 || !passesLuhn(digits) || digits[0] === '0') continue;
      if (digits.length === 13 && digits[0] === '1') continue;
      if (digits.length === 14 && /^(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:[01]\d|2[0-3])[0-5]\d[0-5]\d$/.test(digits)) continue;
      const start = window[0]!.starts[0]!;
      const end = window.at(-1)!.ends.at(-1)!;
      const token = /[0-9A-Za-z]*$/.exec(text.slice(0, start))![0] + text.slice(start, end) + /^[0-9A-Za-z]*/.exec(text.slice(end))![0];
      if (/^[0-9a-fA-F]+$/.test(token) && token.length >= 24 && token.length > end - start) continue;
      const at = window.flatMap((g) => g.starts);
      for (let i = 6; i < at.length - 4; i++) hide.add(at[i]!);
    }
  }
  let out = '';
  for (const unit of units) out += hide.has(unit.at) ? '*' : unit.text;
  return out;
}

/** Pieces an attacker would repeat: card-like runs, runs glued to hex letters, groups and separators of every kind. */
const PIECES = [
  '4111111111111111', 'a4111111111111111', '4111', '1111', '411111', '5555', '0', '1', '9', '12', '123',
  '４１１１', '１１１１', ' ', '  ', '-', '.', '/', '\u00a0', '\u2013', '\t', '\n', '%2D', '%20', 'a', 'f', 'x', 'Z', '카', 'evt_', 'ORD-',
];
const adversarial = fc.array(fc.constantFrom(...PIECES), { maxLength: 300 }).map((pieces) => pieces.join(''));

function stepsFor(text: string): number {
  const counter: ScanSteps = { steps: 0 };
  scanCardNumbers(text, false, counter);
  return counter.steps;
}

/** The texts issue 35 names, and others built to make a scan go back over what it read. */
const LONG_UNITS = ['a4111111111111111', '4111111111111111', '4111 ', '4111 1111 1111 111', '４１１１－', '1234.5678.', 'deadbeef4111', '0%2D'];

describe('the card scan is linear in its input', () => {
  test('it masks exactly what the plain reading of the rule masks, on adversarial texts', () => {
    fc.assert(
      fc.property(adversarial, (text) => {
        expect(scanCardNumbers(text)).toBe(reference(text));
        expect(maskCardNumbers(text)).toBe(reference(text));
      }),
      { numRuns: 2000 },
    );
    for (const unit of LONG_UNITS) {
      const text = unit.repeat(Math.ceil(3000 / unit.length));
      expect(maskCardNumbers(text)).toBe(reference(text));
    }
  });

  test('its steps per character stay bounded however long the text (1 KiB to 64 KiB)', () => {
    for (const unit of LONG_UNITS) {
      const perChar = [1, 8, 64].map((kib) => {
        const text = unit.repeat(Math.ceil((kib * 1024) / unit.length));
        return stepsFor(text) / text.length;
      });
      // A scan that read a token again for each number in it takes steps in proportion to the length squared.
      expect(perChar[2]!).toBeLessThanOrEqual(perChar[0]! * 1.05 + 0.5);
      expect(perChar[2]!).toBeLessThan(40);
    }
    fc.assert(
      fc.property(adversarial, fc.integer({ min: 1, max: 200 }), (text, times) => {
        const long = text.repeat(times);
        expect(stepsFor(long)).toBeLessThanOrEqual(40 * long.length + 40);
      }),
      { numRuns: 300 },
    );
  });
});
