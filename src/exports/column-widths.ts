import { majorUnitText, type ExportCell } from './export-cell';

/** Rows a sheet's column widths are computed from: the writer holds these back until it knows them. */
export const WIDTH_SAMPLE_ROWS = 100;
/** Past this a column would push the rest off the page; a longer text is cut at the column's edge. */
const MAX_WIDTH = 48;
const MIN_WIDTH = 6;
/** A header longer than this wraps onto more lines rather than widening a column of short values. */
const HEADER_WRAP_AT = 16;
/** Room between neighbours, so a right-aligned number and a left-aligned text never read as one. */
const PADDING = 2;
/** The widest an amount or a count of the sample's size can print, so a later, larger one shows whole. */
const MONEY_MIN = 14;

/**
 * How wide a text prints, in the widths of a digit (the unit of an .xlsx column): a Hangul
 * syllable, a CJK character or a full-width form takes two, everything else one.
 */
function displayWidth(text: string): number {
  let width = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    let lineWidth = 0;
    for (const ch of line) lineWidth += WIDE.test(ch) ? 2 : 1;
    width = Math.max(width, lineWidth);
  }
  return width;
}

const WIDE = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1FAFF}\u{20000}-\u{3FFFD}]/u;

/** The text a cell prints as, near enough to measure: grouped amounts with a symbol's room, a time to the second. */
function printedWidth(cell: ExportCell): number {
  switch (cell.kind) {
    case 'text': return displayWidth(cell.text);
    case 'money': return majorUnitText(cell).replace(/\B(?=(\d{3})+(?!\d))/g, ',').length + 2;
    case 'time': return 19;
    case 'date': return 10;
    case 'count': return String(cell.value).length;
    case 'empty': return 0;
  }
}

export interface SheetLayout {
  /** Each column's width, in digit widths. */
  widths: number[];
  /** Lines the header row needs once its texts wrap in those widths. */
  headerLines: number;
}

/**
 * Widths that fit the content: the widest of the header's longest word (a word is never broken),
 * its whole text up to the wrap length, and the sampled cells, bounded both ways. Computed from the
 * first rows only, so a million-row export never holds more than the sample.
 */
export function sheetLayout(headers: Array<{ text: string; kind?: string }>, sample: ExportCell[][]): SheetLayout {
  const widths = headers.map((header, i) => {
    const longestWord = Math.max(...header.text.split(/\s+/).map(displayWidth));
    const content = sample.reduce((widest, row) => Math.max(widest, row[i] ? printedWidth(row[i]!) : 0), 0);
    const floor = header.kind === 'money' ? MONEY_MIN : MIN_WIDTH;
    const width = Math.max(longestWord, Math.min(displayWidth(header.text), HEADER_WRAP_AT), content, floor) + PADDING;
    return Math.min(width, MAX_WIDTH);
  });
  const headerLines = headers.reduce((most, header, i) => Math.max(most, linesOf(header.text, widths[i]! - PADDING / 2)), 1);
  return { widths, headerLines };
}

/** Lines a text takes when wrapped at spaces in `width`. */
function linesOf(text: string, width: number): number {
  let lines = 1;
  let used = 0;
  for (const word of text.split(/\s+/)) {
    const w = displayWidth(word);
    if (used > 0 && used + 1 + w > width) {
      lines += 1;
      used = w;
    } else {
      used += (used > 0 ? 1 : 0) + w;
    }
  }
  return lines;
}
