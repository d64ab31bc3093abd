import { isIP } from 'node:net';
import iconv from 'iconv-lite';
import { STRICT_UTF8 } from '../strict-utf8';
import { KOREAN_CHARSET } from '../euc-kr';
import { isCardSecretKey, maskCardNumberValue, maskCardNumbers, maskSecretValue } from './card-numbers';
import { maskFolded } from './folded-text';
import { holdsPersonName, namesAThing } from './name-fields';
import { outsideAmounts } from './written-amounts';

/**
 * Personal data must never reach logs or screens readable in the clear (card, account, phone,
 * names, e-mail, resident numbers). Masking is by field name, so a new gateway field with a
 * telling name is covered without a code change, and by value, so a phone number in a field
 * with an innocent name (`shopValue2`) or in text with no fields at all is covered too. Names
 * only by field (name-fields.ts): the gateway's own words look like names. Card numbers and card
 * secrets are found wherever they stand (card-numbers.ts).
 * One set of rules for the logs, the CLI and the console.
 */
type MaskKind = 'last-four' | 'initial' | 'whole';

const KEEP_LAST_FOUR = /(card|account|acct|acnt|phone|mobile|tel|contact|cpno)/i;
/** A handphone (`hpNo`, `buyerHp`, `buyer_hp`); case-sensitive, so `php` or `ship` are not one. */
const HANDPHONE = /(^hp|Hp|HP|_hp)/;
const EMAIL_FIELD = /(email|mail)$/i;
/** A resident registration number is shown not even in part: its first half is a birth date. */
const RESIDENT = /(resident|jumin|rrn|ssn|birth)/i;
/**
 * Money, codes and flags that only share a word with a personal field (`cardAmount`,
 * `multiCardAmount`, `cardGubun`, `mobileCd`, `subCardCd`, `mobileAnsimUsed`): an operator
 * reconciling a payment needs them, and they identify no one.
 */
const NOT_PERSONAL_SUFFIX = /(amount|amt|gubun|cd|code|used|yn|type|cnt|count|date|dt|time|status|rate|fee)$/i;

function maskKind(key: string): MaskKind | null {
  if (RESIDENT.test(key) || isCardSecretKey(key)) return 'whole';
  if (namesAThing(key) || NOT_PERSONAL_SUFFIX.test(key)) return null;
  if (KEEP_LAST_FOUR.test(key) || HANDPHONE.test(key)) return 'last-four';
  if (holdsPersonName(key) || EMAIL_FIELD.test(key)) return 'initial';
  return null;
}

export function maskValue(key: string, value: string): string {
  if (value === '') return value;
  const kind = knownKind(key);
  if (kind === 'whole') return value.replace(/[^\s-]/g, '*');
  // `card: 1 × ₩416,457,964` in a memo: the amount is money, what stands around it the card's.
  if (kind === 'last-four') return outsideAmounts(value, keepLastFour, true);
  if (kind === 'initial') return EMAIL_WHOLE.test(value) ? maskEmails(value) : [...value].map((ch, i) => (i === 0 ? ch : '*')).join('');
  return value;
}

/**
 * Every log record asks about the same few names, so answers are kept. Bounded in count and
 * length, because a name may come from a body: past either bound a name is simply tested.
 */
const KNOWN_KEYS = new Map<string, MaskKind | null>();
const MAX_KNOWN_KEYS = 1024;
const MAX_KNOWN_KEY_LENGTH = 64;

function knownKind(key: string): MaskKind | null {
  let kind = KNOWN_KEYS.get(key);
  if (kind === undefined) {
    kind = maskKind(key);
    if (KNOWN_KEYS.size < MAX_KNOWN_KEYS && key.length <= MAX_KNOWN_KEY_LENGTH) KNOWN_KEYS.set(key, kind);
  }
  return kind;
}

export function isSensitiveKey(key: string): boolean {
  return knownKind(key) !== null;
}

/**
 * Texts already masked for one page or one output, by their unmasked text: a page shows a
 * notification's fields twice (the body as received, the normalized event's data), and a long
 * field is masked once, not once per place it is shown.
 */
export type MaskMemo = Map<string, string>;

/** Texts shorter than this are masked again rather than kept: cheaper than keeping them. */
const MEMO_MIN_LENGTH = 256;

function maskText(text: string, memo: MaskMemo | undefined): string {
  if (memo === undefined || text.length < MEMO_MIN_LENGTH) return maskPersonalValues(text);
  let masked = memo.get(text);
  if (masked === undefined) memo.set(text, (masked = maskPersonalValues(text)));
  return masked;
}

/**
 * Deep copy with every sensitive field masked by name and every other text masked by value;
 * cycles and depth are bounded. A number under a sensitive name is masked as its digits (a card
 * number sent bare), and what lies deeper than the bound is left out, never passed through unmasked.
 * `memo`: the texts masked so far for the same page (see MaskMemo).
 */
export function maskSensitive(value: unknown, memo?: MaskMemo): unknown {
  return maskDeep(value, 0, memo);
}

function maskDeep(value: unknown, depth: number, memo: MaskMemo | undefined): unknown {
  if (typeof value === 'string') return maskText(value, memo);
  if (typeof value === 'number' || typeof value === 'bigint') return maskCardNumberValue(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return '<nested too deep to show>';
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, depth + 1, memo));
  if (value instanceof Error) return { type: value.name, message: value.message };
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const scalar = typeof inner === 'string' || typeof inner === 'number' || typeof inner === 'bigint';
    const masked = scalar && isSensitiveKey(key)
      ? maskValue(key, String(inner))
      : inner !== null && isCardSecretKey(key)
        ? maskSecretValue(inner)
        : maskDeep(inner, depth + 1, memo);
    // defineProperty: a `__proto__` field is data to show, not the copy's prototype.
    Object.defineProperty(out, maskCardNumbers(key), { value: masked, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

// Shapes of personal data, wherever they stand. ASCII letters and digits around one mean it is
// part of something else (an order number `ORD01012345678`), so those are not taken.
const EMAIL_SOURCE = String.raw`(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?![A-Za-z0-9-])`;
const EMAIL = new RegExp(EMAIL_SOURCE, 'g');
const EMAIL_WHOLE = new RegExp(`^${EMAIL_SOURCE}$`);
/**
 * 010-1234-5678, 01012345678, +82 10 1234 5678, 010.1234.5678, and landlines with separators
 * (02-123-4567), as folded-text.ts writes them whatever digits and separators they came in.
 */
const PHONE_SOURCE = String.raw`(?<![A-Za-z0-9+])(?:(?:\+82[ .\/-]?(?:\(0\))?|0)1[016789][ .\/-]?\d{3,4}[ .\/-]?\d{4}|(?:\+82[ .\/-]?|0)(?:2|[3-6][1-5]|70)[ .\/)-]\d{3,4}[ .\/-]\d{4})(?![A-Za-z0-9])`;
const PHONE = new RegExp(PHONE_SOURCE, 'g');
/** yymmdd, the dash optional, then the digit for century and sex and six more (900101-1234567). */
const RESIDENT_NUMBER = /(?<![A-Za-z0-9])\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-?[1-8]\d{6}(?![A-Za-z0-9])/g;
/** All but the last four characters become `*`, all of them when there are no more than four; spaces and dashes stay. */
function keepLastFour(value: string): string {
  const shown = value.replace(/[\s-]/g, '').length > 4 ? 4 : 0;
  let keep = shown;
  return [...value].reverse().map((ch) => (/[\s-]/.test(ch) ? ch : keep-- > 0 ? ch : '*')).reverse().join('');
}

/** Every digit but the last four becomes `*`; separators stay, so the shape is still readable. */
function keepLastFourDigits(run: string): string {
  let keep = 4;
  return [...run].reverse().map((ch) => (/\p{Nd}/u.test(ch) && keep-- <= 0 ? '*' : ch)).reverse().join('');
}

function maskEmails(text: string): string {
  return text.replace(EMAIL, (address) => `${address[0]}***${address.slice(address.lastIndexOf('@'))}`);
}

function maskNumberShapes(text: string): string {
  return text.replace(RESIDENT_NUMBER, (number) => number.replace(/\d/g, '*')).replace(PHONE, keepLastFourDigits);
}

/**
 * Read as it stands, then folded (other digits and separators): what either reading finds is
 * masked, so the folded reading only ever adds (`9001011234567` stays a resident number when
 * full-width digits follow it, though folded it is part of a longer run). Amounts are left out
 * (an amount's decimals then the next column's figures, `12.02  2000 0000`, are no Seoul number).
 */
function maskPersonalShapes(text: string): string {
  return maskEmails(outsideAmounts(text, (piece) => maskFolded(maskNumberShapes(piece), maskNumberShapes)));
}

/** Card numbers last: a resident number that happens to pass the Luhn check is masked whole first. */
function maskShapes(text: string): string {
  return maskCardNumbers(maskPersonalShapes(text));
}

/**
 * `name: value` in whatever form text left it: `"key": "value"`, `'key': 'value'`, `key=value`
 * (a form, its value percent-encoded or not), `key: value`. A quoted value may end with the text
 * (a preview cut inside it).
 */
const PAIR = /(?<![\w-])(["']?)([A-Za-z_][\w-]*)\1(\s*[:=]\s*)(?:(["'])((?:\\.|(?!\4)[^\\])*)(\4|$)|([^&;,\r\n"'{}<>]*))/g;

/**
 * A form value's percent-escapes decoded (UTF-8 if the bytes are UTF-8, else EUC-KR, the
 * gateway's form charset), so that `depositName=%C8%AB...` is masked and read as a name.
 */
function percentDecoded(value: string): string {
  if (!/%[0-9A-Fa-f]{2}/.test(value) || /[^\x20-\x7e]/.test(value)) return value;
  const bytes = Buffer.from(value.replace(/\+/g, ' ').replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return iconv.decode(bytes, KOREAN_CHARSET);
  }
}

/** `<customerName>홍길동</customerName>`: a body in XML is text here too. */
const TAG_PAIR = /<([A-Za-z_][\w-]*)>([^<]*)<\/\1>/g;

function maskPair(pair: string, keyQuote: string, key: string, separator: string, quote?: string, quoted?: string, close?: string, bare?: string): string {
  const value = quote === undefined ? bare ?? '' : quoted ?? '';
  const head = `${keyQuote}${key}${keyQuote}${separator}${quote ?? ''}`;
  const tail = quote === undefined ? '' : close ?? '';
  if (isSensitiveKey(key)) return head + maskValue(key, percentDecoded(value)) + tail;
  // Another field's value is decoded only when that reveals something to mask in it.
  const decoded = percentDecoded(value);
  const masked = maskShapes(decoded);
  return decoded !== value && masked !== decoded ? head + masked + tail : pair;
}

/** Pairs outside amounts: a pair's value ends at a comma, which would cut `card: ₩1,000` inside its amount. */
function maskPairs(text: string): string {
  return outsideAmounts(text, maskPairsIn, true);
}

function maskPairsIn(text: string): string {
  return text
    .replace(TAG_PAIR, (pair, key: string, value: string) => (isSensitiveKey(key) ? `<${key}>${maskValue(key, value)}</${key}>` : pair))
    .replace(PAIR, maskPair);
}

/**
 * A text value (a field with no telling name, `shopValue2`): personal values of named pairs in
 * it, and e-mail addresses, resident numbers, phone numbers and the names written beside them.
 */
function maskPersonalValues(text: string): string {
  // Nothing shorter, and nothing without a digit, `@`, `=` or `:`, can hold one of those shapes;
  // a card number may still be written in other digits (maskCardNumbers looks for itself).
  if (text.length < 6 || !/[\p{Nd}@=:]/u.test(text)) return maskCardNumbers(text);
  return maskShapes(maskPairs(text));
}

/**
 * Six or more digits (of any script), one space, dash, dot or slash of any kind between them allowed
 * (`5361-4812-3456-1234`, `110.123.456789`, `110–123–456789`), all on one line; a digit already
 * masked (`*`) does not end the run.
 */
const DIGIT_RUN = /\p{Nd}(?:[\t\x20\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000./\-\u2010-\u2015\u2212\uff0d\uff0e\uff0f]?[\p{Nd}*]){5,}/gu;

/**
 * An IPv4 address (`127.0.0.1`, a broker's or a peer's) is where a service listens, not a person's
 * number: its dotted groups read as a run of digits, and masked they would hide which host it was.
 */
function isIPv4(run: string): boolean {
  return isIP(run) === 4;
}

/**
 * Text that may hold a body without its structure (an undecodable body, an endpoint's error
 * answer): personal values masked as in a text field, and every other run of digits that could
 * be a card or account number keeps its last four only. A formatted amount (`₩1,000,000`,
 * `12000원`) is money, not an account number: it stays as written.
 */
export function maskFreeText(text: string): string {
  // Card numbers before the digit runs: a run cut out of a card must not hide the card from the scan.
  return outsideAmounts(maskCardNumbers(maskPersonalShapes(maskPairs(text))), (piece) => piece.replace(DIGIT_RUN, (run) => (isIPv4(run) ? run : keepLastFourDigits(run))));
}

/**
 * A field name taken from a body, as it may appear in a reason or a log: a name shaped like
 * the gateway's (`cardNo`, `productNo12`, `res_cd`) as it is, anything else (long, odd
 * characters, enough digits to be a card or account number) only described.
 */
export function shownFieldName(name: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/.test(name) && (name.match(/\d/g)?.length ?? 0) < 6;
  return plain ? name : `(a field name of ${[...name].length} characters)`;
}
