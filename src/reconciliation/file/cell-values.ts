import { isBlankCell, type Cell } from './cell-grid';

const KST_OFFSET_MS = 9 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A cell's text as a person reads it; `null` for an empty cell. */
export function cellText(cell: Cell | undefined): string | null {
  if (cell === undefined || cell === null || isBlankCell(cell)) return null;
  if (cell instanceof Date) return cell.toISOString();
  if (typeof cell === 'number') return String(cell);
  return cell.trim();
}

/** Excel keeps 15 significant digits of a number: a longer one was rounded when it was typed or saved. */
const EXACT_IN_EXCEL = 1e15;

/**
 * An identifier's text. A workbook may hold a transaction number as a number: a whole number
 * of up to 15 digits is exact; a longer one has already lost its last digits, so it cannot be
 * matched and is refused (`undefined`).
 */
export function identifierText(cell: Cell | undefined): string | null | undefined {
  if (typeof cell === 'number') return Number.isInteger(cell) && cell >= 0 && cell < EXACT_IN_EXCEL ? String(cell) : undefined;
  if (cell instanceof Date) return undefined;
  return cellText(cell);
}

/**
 * Won from a cell: a workbook's number, or text with thousands separators, a currency sign or
 * unit (₩, 원, KRW), a minus sign or accounting parentheses for a negative. Won has no minor
 * unit, so a fraction is unreadable rather than rounded. `undefined` when unreadable, `null` when empty.
 */
export function wonAmount(cell: Cell | undefined): number | null | undefined {
  if (cell === undefined || cell === null || isBlankCell(cell)) return null;
  if (typeof cell === 'number') return Number.isSafeInteger(cell) ? cell : undefined;
  if (cell instanceof Date) return undefined;
  if (PLAIN_WON.test(cell)) return Number(cell) || 0;
  let text = cell.normalize('NFKC').replace(/[\s₩￦]|KRW|원/gi, '');
  let negative = false;
  const accounting = /^\((.*)\)$/.exec(text);
  if (accounting) {
    negative = true;
    text = accounting[1]!;
  }
  // Commas only where thousands separators go: 「1.000,00」 is not a thousand read as one.
  const match = /^([-+]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.0+)?$/.exec(text);
  if (!match) return undefined;
  const value = Number(match[2]!.replace(/,/g, '')) * (match[1] === '-' !== negative ? -1 : 1);
  return Number.isSafeInteger(value) ? (value === 0 ? 0 : value) : undefined;
}

/** The common case, read without normalising: digits only, perhaps a minus. */
const PLAIN_WON = /^-?\d{1,15}$/;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const DATE_TEXT = /^(\d{4})\s*[-./년]\s*(\d{1,2})\s*[-./월]\s*(\d{1,2})\s*일?\.?(?:[\sT]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const DIGITS = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?$/;
const TIME_TEXT = /^(\d{1,2}):?(\d{2}):?(\d{2})?$/;

/**
 * A KST wall clock from a cell: text (「2026-11-30 14:03:22」, 「2026.11.30 14:03」,
 * 「2026/11/30」, 「20261130140322」) or a workbook date. exceljs hands an Excel date over as a
 * Date whose UTC fields are the sheet's wall clock, and the portals write KST, so the UTC fields
 * are read as KST.
 */
function wallClock(cell: Cell | undefined): WallClock | null {
  if (cell === undefined || cell === null) return null;
  if (cell instanceof Date) {
    if (Number.isNaN(cell.getTime())) return null;
    return {
      year: cell.getUTCFullYear(), month: cell.getUTCMonth() + 1, day: cell.getUTCDate(),
      hour: cell.getUTCHours(), minute: cell.getUTCMinutes(), second: cell.getUTCSeconds(),
    };
  }
  const text = typeof cell === 'number' ? (Number.isSafeInteger(cell) ? String(cell) : '') : asciiOrFolded(cell).trim();
  const match = DATE_TEXT.exec(text) ?? DIGITS.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => (part === undefined ? 0 : Number(part)));
  return validClock({ year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: second! });
}

function validClock(clock: WallClock): WallClock | null {
  const probe = new Date(Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second));
  const same = probe.getUTCFullYear() === clock.year && probe.getUTCMonth() === clock.month - 1 && probe.getUTCDate() === clock.day
    && clock.hour < 24 && clock.minute < 60 && clock.second < 60;
  return same && clock.year >= 2000 && clock.year < 2100 ? clock : null;
}

/** Full-width digits and signs folded to ASCII; text that is ASCII already is left as it is, which is most of it. */
function asciiOrFolded(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : text.normalize('NFKC');
}

/** A time of day from its own column: 「14:03:22」, 「140322」, an Excel time (a Date or a fraction of a day). */
function timeOfDay(cell: Cell | undefined): number | null {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? null : cell.getTime() - Date.UTC(cell.getUTCFullYear(), cell.getUTCMonth(), cell.getUTCDate());
  if (typeof cell === 'number') {
    if (cell >= 0 && cell < 1) return Math.round(cell * DAY_MS / 1000) * 1000;
    return timeOfDay(String(cell).padStart(6, '0'));
  }
  if (typeof cell !== 'string') return null;
  const match = TIME_TEXT.exec(asciiOrFolded(cell).trim());
  if (!match) return null;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  return hour < 24 && minute < 60 && second < 60 ? ((hour * 60 + minute) * 60 + second) * 1000 : null;
}

/** A KST time as ISO UTC, from one cell or a day cell and a time cell; `undefined` when unreadable. */
export function kstInstant(dayOrTime: Cell | undefined, time?: Cell): string | undefined {
  const clock = wallClock(dayOrTime);
  if (!clock) return undefined;
  let wall = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  if (time !== undefined && !isBlankCell(time)) {
    const ofDay = timeOfDay(time);
    if (ofDay === null) return undefined;
    wall = Date.UTC(clock.year, clock.month - 1, clock.day) + ofDay;
  }
  return new Date(wall - KST_OFFSET_MS).toISOString();
}

/** A KST day (YYYY-MM-DD) from a cell; `undefined` when unreadable, `null` when empty. */
export function kstDay(cell: Cell | undefined): string | null | undefined {
  if (cell === undefined || isBlankCell(cell)) return null;
  const clock = wallClock(cell);
  if (!clock) return undefined;
  return `${clock.year}-${String(clock.month).padStart(2, '0')}-${String(clock.day).padStart(2, '0')}`;
}

/** The KST day of an ISO UTC instant. */
export function kstDayOf(isoUtc: string): string {
  return new Date(Date.parse(isoUtc) + KST_OFFSET_MS).toISOString().slice(0, 10);
}
