import { KST_OFFSET_MS } from '../notifications/kst-date';
import { maskSensitive } from '../observability/mask';
import { visibleBidiControls } from './html';

/** Operators and the gateway's portal both think in Korean time; the title keeps the exact UTC instant. */
export function kstTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return `${new Date(ms + KST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ')} KST`;
}

/** `yyyy-mm-dd` (a day in Korea) to the UTC instant it starts at; null for anything else. */
export function kstDayStart(day: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const ms = Date.parse(`${day}T00:00:00+09:00`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export function ageText(ms: number | null): string {
  if (ms === null) return '—';
  const seconds = Math.round(ms / 1000);
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} days`;
}

/** Masked exactly as the logs are (by field name and by value), then pretty-printed for a <pre>. */
export function maskedJson(value: unknown): string {
  return visibleBidiControls(JSON.stringify(maskSensitive(value), null, 2));
}

/**
 * An amount as the gateway and the ledger keep it: an integer in the currency's minor unit
 * (SPEC 7.1), never divided into a decimal that would round. Without a currency (an order with
 * no expectation: notifications do not state one) it says so rather than guess.
 */
export function minorAmount(amount: number | null, currency: string | null): string {
  if (amount === null) return 'unreadable';
  return `${amount} ${currency ?? '(minor units)'}`;
}
