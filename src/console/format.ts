import { isCalendarDay } from '../calendar-day';
import { maskSensitive, type MaskMemo } from '../observability/mask';
import { maskedText, visibleBidiControls, type MaskedText } from './html';
import { kstTimeIn, type Translator } from './i18n/translator';

/** An instant in Korean time as the English pages (and the CLI's tests) print it. */
export const kstTime = (iso: string | null | undefined): string => kstTimeIn('en', iso);

/** `yyyy-mm-dd` (a day in Korea) to the UTC instant it starts at; null for anything else. */
export function kstDayStart(day: string): string | null {
  // Date.parse would read 2026-02-29 as 1 March: only a real calendar day is a day.
  if (!isCalendarDay(day)) return null;
  const ms = Date.parse(`${day}T00:00:00+09:00`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** The instant after a whole day in Korea (a range's inclusive "to" day); null for anything else. */
export function kstDayEnd(day: string): string | null {
  const start = kstDayStart(day);
  return start === null ? null : new Date(Date.parse(start) + 24 * 60 * 60 * 1000).toISOString();
}

export function ageText(ms: number | null, t: Translator): string {
  if (ms === null) return '—';
  const seconds = Math.round(ms / 1000);
  if (seconds < 90) return t('age.seconds', { n: seconds });
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return t('age.minutes', { n: minutes });
  const hours = Math.round(minutes / 60);
  return hours < 48 ? t('age.hours', { n: hours }) : t('age.days', { n: Math.round(hours / 24) });
}

/** Masked exactly as the logs are (by field name and by value), then pretty-printed for a <pre>. */
export function maskedJson(value: unknown, memo?: MaskMemo): MaskedText {
  return maskedText(visibleBidiControls(JSON.stringify(maskSensitive(value, memo), null, 2)));
}
