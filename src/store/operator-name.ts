import { LEDGER_RESOLVER } from '../ledger/fold/discrepancy-lifecycle';
import { BOOTSTRAP_OPERATOR } from './store';

/** An e-mail address's longest form, since single sign-on proxies name people by e-mail. */
export const MAX_OPERATOR_NAME_LENGTH = 254;

/**
 * Characters a name must not hold: control characters (a newline would forge lines in logs and
 * terminals), format characters (a right-to-left override would make `kim` read as someone
 * else in the audit log), unassigned, private-use and lone surrogate code points.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Cs}\p{Zl}\p{Zp}]/u;

/**
 * Characters that print as nothing, or as a blank that is not a space: `admin` followed by one
 * reads as `admin`. Unicode's default-ignorable code points hold the Hangul fillers (U+115F,
 * U+1160, U+3164, U+FFA0), the combining grapheme joiner, variation selectors, zero-width
 * characters and bidi controls; the Braille blank (U+2800) is a filler that is not among them.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u2800]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');
/** Whitespace other than the plain space: `kim\u3000lee` must not pass for `kim lee`. */
const ODD_SPACE = /(?! )\p{White_Space}/u;

const HIDDEN_ALL = new RegExp(`${UNPRINTABLE.source}|${INVISIBLE.source}|${ODD_SPACE.source}`, 'gu');

/** A name as a quoted string whose hidden characters are written as escapes (`"admin\\u034f"`), so a refusal shows what it refused. */
export function shownName(name: string): string {
  return JSON.stringify(name).replace(HIDDEN_ALL, (ch) => {
    const code = ch.codePointAt(0)!;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Names the service signs with itself: no person may be given one, nor one that reads as one. */
const RESERVED: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
  [BOOTSTRAP_OPERATOR]: 'the bootstrap operator, who signs in with ADMIN_TOKEN',
  [LEDGER_RESOLVER]: "the ledger's own resolutions",
});

/**
 * Letters of other scripts drawn exactly as a Latin one in the usual fonts (after lower-casing):
 * `аdmin` with a Cyrillic а is not `admin` to NFKC, but reads as it in the audit log. The few
 * Unicode's confusables table lists for the letters a name is written in; not the whole table.
 */
const LATIN_LOOKALIKES: Readonly<Record<string, string>> = {
  'а': 'a', 'в': 'b', 'с': 'c', 'ԁ': 'd', 'е': 'e', 'һ': 'h', 'і': 'i', 'ј': 'j', 'к': 'k', 'ӏ': 'l', 'м': 'm', 'н': 'h',
  'о': 'o', 'р': 'p', 'ԛ': 'q', 'ѕ': 's', 'т': 't', 'у': 'y', 'х': 'x', 'ԝ': 'w',
  'α': 'a', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x',
  'ı': 'i', 'ɑ': 'a', 'ɡ': 'g', 'ℓ': 'l',
};
const LOOKALIKE_ALL = new RegExp(`[${Object.keys(LATIN_LOOKALIKES).join('')}]`, 'gu');

/**
 * What a name reads as: compatibility forms folded (full-width `ａｄｍｉｎ`, mathematical letters),
 * invisible characters removed, case ignored, other scripts' letters drawn as Latin ones read as
 * those. Two names with one skeleton look alike.
 */
function nameSkeleton(name: string): string {
  return name.normalize('NFKC').replace(INVISIBLE_ALL, '').toLowerCase().normalize('NFKC').replace(LOOKALIKE_ALL, (ch) => LATIN_LOOKALIKES[ch]!);
}

/** What the reserved name `name` reads as is kept for, or null when it reads as no reserved name. */
export function reservedNameUse(name: string): string | null {
  const reserved = nameSkeleton(name);
  return RESERVED[reserved] === undefined ? null : `"${reserved}" is reserved for ${RESERVED[reserved]}`;
}

/**
 * Why `name` cannot name an existing operator, or null: what `operators token` and `remove` look
 * up. Operators added before the rules for new names (below) can still be found by their name.
 */
export function operatorNameProblem(name: string): string | null {
  if (name.length === 0) return 'an operator name must not be empty';
  if ([...name].length > MAX_OPERATOR_NAME_LENGTH) return `an operator name is at most ${MAX_OPERATOR_NAME_LENGTH} characters`;
  if (UNPRINTABLE.test(name)) return 'an operator name must not hold control or invisible formatting characters';
  if (name.trim() !== name) return 'an operator name must not start or end with whitespace';
  if (name === BOOTSTRAP_OPERATOR) return `"${BOOTSTRAP_OPERATOR}" is the bootstrap operator, who signs in with ADMIN_TOKEN`;
  return null;
}

/**
 * Why `name` cannot be given to a person (a new operator, whoever resolves a discrepancy), or
 * null. The audit log names people by it, so it must print as itself and as no one else.
 */
export function newOperatorNameProblem(name: string): string | null {
  const problem = operatorNameProblem(name);
  if (problem) return problem;
  if (INVISIBLE.test(name)) return 'an operator name must not hold invisible characters (fillers, joiners, variation selectors)';
  if (ODD_SPACE.test(name)) return 'an operator name must not hold whitespace other than the plain space';
  return reservedNameUse(name);
}

/**
 * Why `name` cannot be added beside the operators named `existing`: one of them reads the same
 * (`Kim` or `ｋｉｍ` beside `kim`), so the audit log could not tell them apart. Null when none does;
 * the same name exactly is the store's own "exists".
 */
export function lookalikeProblem(name: string, existing: readonly string[]): string | null {
  const skeleton = nameSkeleton(name);
  const twin = existing.find((other) => other !== name && nameSkeleton(other) === skeleton);
  return twin === undefined ? null : `an operator name must not read as another operator's: ${shownName(twin)} exists`;
}
