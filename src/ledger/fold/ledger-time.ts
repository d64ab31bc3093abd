/** A time the ledger cannot place on the timeline: ordering by it would make the record depend on input order. */
class InvalidLedgerTime extends Error {
  override readonly name = 'InvalidLedgerTime';
  constructor(readonly field: string, readonly value: string) {
    super(`${field}: "${value}" is not an ISO time`);
  }
}

/**
 * Epoch milliseconds of an ISO time. The gateway's times carry +09:00 and the receiver's carry Z,
 * so the ledger compares instants, never the texts.
 */
export function epochMs(field: string, text: string): number {
  let ms = storedFormMs(text);
  if (Number.isNaN(ms)) ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new InvalidLedgerTime(field, text);
  return ms;
}

export const isoOf = (ms: number): string => new Date(ms).toISOString();

/**
 * True when `text` is exactly what `isoOf(ms)` prints (`YYYY-MM-DDTHH:mm:ss.sssZ`, as the receiver
 * stores its times), so it can stand for it: toISOString costs ~0.7 µs and the record prints
 * times that are mostly a fact's own recordedAt.
 */
export function isIsoOf(text: string, ms: number): boolean {
  return text.length === 24 && text.charCodeAt(23) === 90 /* Z */ && storedFormMs(text) === ms;
}

/**
 * Date.parse's answer for the two forms the ledger's facts carry (the receiver's
 * `2026-11-21T03:00:00.000Z`, the gateway's `2026-11-21T12:00:00+09:00`), read by hand: Date.parse
 * costs ~0.25 µs and every notification's fold reads several. NaN for anything else, or any field
 * out of its calendar range (a year before 100, a 30 February, 24:00): Date.parse decides those.
 */
function storedFormMs(text: string): number {
  const n = text.length;
  if (n < 20 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return NaN;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  let millis = 0;
  let zone = 19;
  if (text.charCodeAt(19) === 46 /* . */) {
    millis = digits(text, 20, 3);
    zone = 23;
  }
  let offset: number;
  const sign = text.charCodeAt(zone);
  if (sign === 90 /* Z */ && n === zone + 1) offset = 0;
  else if ((sign === 43 || sign === 45) /* + - */ && n === zone + 6 && text.charCodeAt(zone + 3) === 58) {
    const hours = digits(text, zone + 1, 2);
    const minutes = digits(text, zone + 4, 2);
    if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return NaN;
    offset = (sign === 43 ? 1 : -1) * (hours * 60 + minutes) * 60_000;
  } else return NaN;
  // Years below 100 are left to Date.parse, as Date reads some of those as 19xx.
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NaN;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || millis < 0) return NaN;
  return daysFromCivil(year, month, day) * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000 + millis - offset;
}

/**
 * Days from 1970-01-01 to a day of the proleptic Gregorian calendar (Date's), by H. Hinnant's
 * `days_from_civil`: plain arithmetic, where Date.UTC costs ~0.1 µs.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The decimal number of `count` ASCII digits at `from`; -1 when any is not a digit (or is past the end). */
function digits(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i += 1) {
    const digit = text.charCodeAt(i) - 48;
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** (time, id): the one order in which the ledger reads its facts; ids break ties so nothing depends on arrival. */
export function byTimeThenId(a: { ms: number; id: string }, b: { ms: number; id: string }): number {
  if (a.ms !== b.ms) return a.ms - b.ms;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
