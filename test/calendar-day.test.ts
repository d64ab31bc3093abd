import { dayNumber, dayProblem, dayRangeIssue, dayRangeProblem, isCalendarDay, monthProblem } from '../src/calendar-day';

describe('a calendar day as people type it', () => {
  it.each(['2024-02-29', '2000-02-29', '2026-12-31', '2026-01-01', '0001-01-01', '9999-12-31', '2026-04-30'])('%s is a day', (day) => {
    expect(dayProblem(day)).toBeNull();
  });

  it.each([
    ['2026-02-29', '2026-02 has days 01 to 28'],
    ['1900-02-29', '1900-02 has days 01 to 28'],
    ['2026-04-31', '2026-04 has days 01 to 30'],
    ['2026-12-32', '2026-12 has days 01 to 31'],
    ['2026-12-00', '2026-12 has days 01 to 31'],
    ['2026-13-01', 'there is no month 13'],
    ['2026-00-10', 'there is no month 00'],
    ['2026-1-1', 'write it as YYYY-MM-DD'],
    ['2026-01-01T00:00', 'write it as YYYY-MM-DD'],
    ['', 'write it as YYYY-MM-DD'],
  ])('%s is not: %s', (day, words) => {
    expect(dayProblem(day)).toContain(words);
    expect(isCalendarDay(day)).toBe(false);
  });

  it('counts days as the calendar does, without a Date', () => {
    for (let ms = Date.UTC(1899, 0, 1); ms < Date.UTC(2101, 0, 1); ms += 86_400_000 * 13) {
      expect(dayNumber(new Date(ms).toISOString().slice(0, 10))).toBe(ms / 86_400_000);
    }
  });

  it('measures a range from its two dates: a year of 366 days is a range, 0000-01-01 to 9999-12-31 is refused by arithmetic', () => {
    expect(dayRangeProblem('2024-01-01', '2024-12-31', 366)).toBeNull();
    expect(dayRangeProblem('2026-11-22', '2026-11-22', 366)).toBeNull();
    expect(dayRangeIssue('2025-01-01', '2026-01-02', 366)).toEqual({ kind: 'tooLong', from: '2025-01-01', to: '2026-01-02', days: 367, max: 366 });
    expect(dayRangeProblem('0000-01-01', '9999-12-31', 366)).toBe('from 0000-01-01 to 9999-12-31 is 3652425 days, more than 366; ask for a shorter range');
    expect(dayRangeProblem('2026-11-23', '2026-11-22')).toBe('to 2026-11-22 is before from 2026-11-23');
    expect(dayRangeProblem('2026-13-01', '2026-13-02')).toBe('from: 2026-13-01 is not a day: there is no month 13');
  });

  it.each([['2026-11', null], ['2026-13', 'there is no month 13'], ['2026-1', 'write it as YYYY-MM'], ['2026-11-01', 'write it as YYYY-MM']])('month %s', (month, words) => {
    if (words === null) expect(monthProblem(month)).toBeNull();
    else expect(monthProblem(month)).toContain(words);
  });
});
