/**
 * The number part of an amount as people type it, read exactly (never through a float): plain
 * (`12000`, `12,000`, `12.03`) or with the Korean units a customer or an accountant writes
 * (`1만2천`, `1만 2천`, `1.2만`, `1,200만`, `3억 5천만`). The text has been NFKC-normalised, so
 * full-width digits and separators are already ASCII.
 */
export interface TypedNumber {
  /** The value is `units / 10^scale`. */
  units: bigint;
  scale: number;
  /**
   * Decimals written after the point of a plain number (`12.03`: 2). They tell which currencies a
   * bare number can be: 12.03 is no amount of won. Korean units multiply them away: 0.
   */
  writtenDecimals: number;
}

const PLAIN = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;
/** One term of a Korean amount: a number, a unit, or both (`2천`, `1,200만`, `만`, a last `3,400`). */
const TERM = /(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d+))?\s*([조억만천백십])?\s*/y;
/** 조, 억 and 만 close a group of four digits; 천, 백 and 십 count inside one. */
const GROUP_UNITS: Record<string, number> = { 조: 12, 억: 8, 만: 4 };
const DIGIT_UNITS: Record<string, number> = { 천: 3, 백: 2, 십: 1 };

export function typedNumber(text: string): TypedNumber | null {
  const plain = PLAIN.exec(text);
  if (plain) return decimal(plain[1]!, plain[2]);
  return /\d/.test(text) ? koreanNumber(text) : null;
}

function decimal(whole: string, fraction: string | undefined): TypedNumber {
  const decimals = fraction ?? '';
  return { units: BigInt(whole.replaceAll(',', '') + decimals), scale: decimals.length, writtenDecimals: decimals.length };
}

interface Term { number: TypedNumber | null; unit: string | null }

function termsOf(text: string): Term[] | null {
  const terms: Term[] = [];
  TERM.lastIndex = 0;
  while (TERM.lastIndex < text.length) {
    const at = TERM.lastIndex;
    const match = TERM.exec(text);
    if (!match || TERM.lastIndex === at) return null;
    const [, whole, fraction, unit] = match;
    if (whole === undefined && fraction !== undefined) return null;
    if (whole === undefined && unit === undefined) return null;
    terms.push({ number: whole === undefined ? null : decimal(whole, fraction), unit: unit ?? null });
  }
  return terms;
}

/**
 * Groups of four digits, largest first, each closed by 조, 억 or 만 and counted inside by 천, 백
 * and 십 (each at most once, largest first, times one digit) and a last plain number smaller than
 * the unit before it. A lone term takes a decimal (`1.2만`) and, before 조, 억 or 만, any number
 * (`1,200만`); with more terms, `1.5만 300` reads two ways, so it is none.
 * Anything else (`2만 1만`, `12천`, `1만 12000`) is no amount rather than a guess.
 */
function koreanNumber(text: string): TypedNumber | null {
  const terms = termsOf(text.trim());
  if (terms === null || terms.length === 0 || !terms.some((term) => term.unit !== null)) return null;
  if (terms.length === 1) {
    const [{ number, unit }] = terms as [Term];
    const exponent = GROUP_UNITS[unit!] ?? DIGIT_UNITS[unit!]!;
    const n = number ?? { units: 1n, scale: 0, writtenDecimals: 0 };
    // 천, 백 and 십 count one digit (`1.5천` too); a group unit takes any number (`1,200만`).
    if (unit! in DIGIT_UNITS && n.units >= 10n * 10n ** BigInt(n.scale)) return null;
    return normalised(n.units * 10n ** BigInt(exponent), n.scale);
  }
  if (terms.some((term) => term.number !== null && term.number.scale > 0)) return null;
  let total = 0n;
  let group = 0n;
  let groupBelow = Infinity;
  let digitBelow = 4;
  for (const [index, { number, unit }] of terms.entries()) {
    const value = number?.units ?? null;
    if (unit !== null && unit in DIGIT_UNITS) {
      const exponent = DIGIT_UNITS[unit]!;
      if (exponent >= digitBelow || (value !== null && (value < 1n || value > 9n))) return null;
      group += (value ?? 1n) * 10n ** BigInt(exponent);
      digitBelow = exponent;
      continue;
    }
    // A plain number ends its group: it counts what the units before it left below them.
    if (value !== null) {
      if (value >= 10n ** BigInt(digitBelow)) return null;
      group += value;
      digitBelow = 0;
    }
    if (unit === null) {
      if (index !== terms.length - 1) return null;
      continue;
    }
    const exponent = GROUP_UNITS[unit]!;
    if (exponent >= groupBelow) return null;
    total += (group === 0n && value === null && digitBelow === 4 ? 1n : group) * 10n ** BigInt(exponent);
    groupBelow = exponent;
    group = 0n;
    digitBelow = 4;
  }
  if (groupBelow !== Infinity && group >= 10n ** BigInt(groupBelow)) return null;
  return normalised(total + group, 0);
}

/** Trailing zeros after the point dropped: `1.2만` is 12000, not 120000 tenths. */
function normalised(units: bigint, scale: number): TypedNumber {
  let [u, s] = [units, scale];
  while (s > 0 && u % 10n === 0n) {
    u /= 10n;
    s -= 1;
  }
  return { units: u, scale: s, writtenDecimals: 0 };
}
