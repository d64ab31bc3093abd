import { kstTime } from '../console/format';
import { maskCardText } from '../observability/card-numbers';
import { terminalText } from './terminal-text';

/**
 * Plain-text tables for a terminal. Hangul and other East Asian wide characters take two
 * columns, so widths are counted in columns, not code units, or Korean names shift every
 * column after them.
 */
export function formatTable(headers: string[], rows: Array<Array<string | number | null>>): string {
  const cells = rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '-' : cellText(String(cell)))));
  const widths = headers.map((header, i) => Math.max(displayWidth(header), ...cells.map((row) => displayWidth(row[i] ?? ''))));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : pad(cell, widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** `key  value` lines, keys aligned. */
export function formatFields(entries: Array<[string, unknown]>): string {
  const width = Math.max(0, ...entries.map(([key]) => displayWidth(key)));
  return entries
    .map(([key, value]) => `${pad(key, width)}  ${value === null || value === undefined ? '-' : cellText(typeof value === 'string' ? value : JSON.stringify(value))}`)
    .join('\n');
}

/**
 * A cell on one line, control characters escaped (a line break in a shop order number must not
 * start a row of its own), card numbers masked within it (the output's guard reads column by
 * column, so a card written with a wide gap is found here, in its own field); a time as the console shows it, in Korea's time (the gateway's and
 * the shops' clock), where the stored UTC instant would be off by nine hours for the reader.
 */
function cellText(text: string): string {
  return terminalText(ISO_TIME.test(text) ? kstTime(text) : maskCardText(text), true);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += isWide(ch.codePointAt(0)!) ? 2 : 1;
  return width;
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) || // Hangul Jamo
    (code >= 0x2e80 && code <= 0xa4cf) || // CJK radicals … Yi
    (code >= 0xac00 && code <= 0xd7a3) || // Hangul syllables
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6)
  );
}
