import { DIGIT, newUnit, OTHER, readUnit } from './digit-units';

/**
 * A text read one unit at a time (digit-units.ts) and written back as one ASCII character per
 * unit, so that the shapes of phone and resident numbers, written in ASCII, also find them when
 * they are written in other digits (`０１０`, `٠١٠`), with other separators (a no-break space,
 * an en dash, a minus sign, an ideographic space, a tab) or escaped (`%2D`, `\u2013`, `&ndash;`).
 * What is masked in the folded text is masked in the text at the same units: one pass each way.
 */
export interface FoldedText {
  folded: string;
  /** Where each folded character's unit starts in the text; the last entry is the text's length. */
  starts: number[];
}

/** Every kind of space, tab and line break: one space. */
const SPACE = /\s/u;
/** Dashes and minus signs of every kind: one hyphen. */
const DASH = /[\u2010-\u2015\u2212\u2043\ufe58\ufe63\uff0d]/;
/** Dots and slashes of other scripts and widths. */
const DOT = /[\u00b7\u2024\u2027\u3002\uff0e\uff61]/;
const SLASH = /[\u2044\u2215\uff0f]/;

/**
 * What folding can change: a control character, an escape's first character, anything not ASCII
 * but a Hangul syllable (which the shapes read as the letter it folds to, `#`, anyway). Text
 * without any (ASCII, Korean words) reads the same folded: it is not folded, the common case.
 */
const FOLDS = /[\x00-\x1f%&\\\x7f-\uabff\ud7a4-\uffff]/;

function foldText(text: string): FoldedText | null {
  if (!FOLDS.test(text)) return null;
  const unit = newUnit();
  let folded = '';
  const starts: number[] = [];
  for (let at = 0; at < text.length; at += unit.length) {
    readUnit(text, at, unit);
    starts.push(at);
    folded += foldedUnit(text, at, unit.kind, unit.value, unit.length);
  }
  starts.push(text.length);
  return { folded, starts };
}

function foldedUnit(text: string, at: number, kind: number, value: number, length: number): string {
  if (kind === DIGIT) return String.fromCharCode(0x30 + value);
  const char = text[at]!;
  // The shapes' ASCII letters and digits around a number make it part of a code (`ORD01012345678`);
  // a Korean word written against it (`전화01012345678`) does not, so other scripts' letters are not letters here.
  if (kind === OTHER) return length > 1 ? 'a' : char.charCodeAt(0) < 0x80 ? char : '#';
  // An escape that stands for a separator (`%2D`, `\u00a0`, `&nbsp;`) joins groups as a hyphen.
  if (length > 1) return '-';
  if (SPACE.test(char)) return ' ';
  if (char.charCodeAt(0) < 0x80) return char;
  if (DASH.test(char)) return '-';
  if (DOT.test(char)) return '.';
  return SLASH.test(char) ? '/' : '#';
}

/**
 * The text with a `*` for every unit whose folded character `mask` turned into one: `mask` must
 * keep the folded text's length (it replaces characters, one for one). Text with nothing to fold
 * is returned as it is: the caller reads the text as it stands itself.
 */
export function maskFolded(text: string, mask: (folded: string) => string): string {
  const fold = foldText(text);
  if (fold === null) return text;
  const masked = mask(fold.folded);
  if (masked === fold.folded) return text;
  let out = '';
  let copied = 0;
  for (let i = 0; i < masked.length; i++) {
    if (masked.charCodeAt(i) !== 0x2a || fold.folded.charCodeAt(i) === 0x2a) continue;
    out += text.slice(copied, fold.starts[i]) + '*';
    copied = fold.starts[i + 1]!;
  }
  return out + text.slice(copied);
}
