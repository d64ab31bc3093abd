/**
 * Calendar days (`YYYY-MM-DD`) and months (`YYYY-MM`) as people type them in a link, a form or a
 * command line, read by arithmetic alone: JavaScript's Date turns 2026-02-29 into 1 March and
 * 2026-13-01 into an Invalid Date that throws when printed, and a range counted day by day lets
 * 0000-01-01..9999-12-31 build millions of days before any limit is read. Every route and command
 * that takes a day or a month reads it here, so each refuses the same inputs with the same words.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysIn = (year: number, month: number) => (month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

/** Why `text` is not a calendar day, in words for the one who typed it; null when it is one. */
export function dayProblem(text: string): string | null {
  const m = DAY.exec(text);
  if (!m) return `${JSON.stringify(text)} is not a day: write it as YYYY-MM-DD, e.g. 2026-11-27`;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12) return `${text} is not a day: there is no month ${m[2]}`;
  const last = daysIn(year, month);
  if (day < 1 || day > last) return `${text} is not a day: ${m[1]}-${m[2]} has days 01 to ${last}`;
  return null;
}

/** Why `text` is not a calendar month (`YYYY-MM`); null when it is one. */
export function monthProblem(text: string): string | null {
  const m = MONTH.exec(text);
  if (!m) return `${JSON.stringify(text)} is not a month: write it as YYYY-MM, e.g. 2026-11`;
  const month = Number(m[2]);
  return month < 1 || month > 12 ? `${text} is not a month: there is no month ${m[2]}` : null;
}

export const isCalendarDay = (text: string): boolean => dayProblem(text) === null;

/** Days since 1970-01-01 of a calendar day (proleptic Gregorian, Howard Hinnant's days_from_civil); the caller checked it. */
export function dayNumber(day: string): number {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + date - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** What is wrong with a range of days, for a caller that words it in its own language. */
export type DayRangeIssue =
  | { kind: 'badFrom' | 'badTo'; day: string; problem: string }
  | { kind: 'backwards'; from: string; to: string }
  | { kind: 'tooLong'; from: string; to: string; days: number; max: number };

/**
 * Why `from`..`to` (both included) is not a range to answer, or null: each a calendar day, `to`
 * not before `from`, and at most `maxDays` days, counted from the two dates alone.
 */
export function dayRangeIssue(from: string, to: string, maxDays?: number): DayRangeIssue | null {
  const fromProblem = dayProblem(from);
  if (fromProblem !== null) return { kind: 'badFrom', day: from, problem: fromProblem };
  const toProblem = dayProblem(to);
  if (toProblem !== null) return { kind: 'badTo', day: to, problem: toProblem };
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days < 1) return { kind: 'backwards', from, to };
  if (maxDays !== undefined && days > maxDays) return { kind: 'tooLong', from, to, days, max: maxDays };
  return null;
}

/** The same in English, for the API and the CLI. */
export function dayRangeProblem(from: string, to: string, maxDays?: number): string | null {
  const issue = dayRangeIssue(from, to, maxDays);
  if (issue === null) return null;
  switch (issue.kind) {
    case 'badFrom': return `from: ${issue.problem}`;
    case 'badTo': return `to: ${issue.problem}`;
    case 'backwards': return `to ${issue.to} is before from ${issue.from}`;
    case 'tooLong': return `from ${issue.from} to ${issue.to} is ${issue.days} days, more than ${issue.max}; ask for a shorter range`;
  }
}
