import { isIP } from 'node:net';
import { maskFreeText } from '../observability/mask';

/** Enough of an X-Forwarded-For to see the path a request came by, never kilobytes of it. */
const FORWARDED_FOR_LOG_CHARS = 200;

export function forwardedForForLog(header: string | string[] | undefined): { forwardedFor?: string; forwardedForHops?: number } {
  if (header === undefined) return {};
  const text = Array.isArray(header) ? header.join(',') : header;
  const hops = text.split(',').filter((hop) => hop.trim() !== '').length;
  const excerpt = maskFreeText(text.slice(0, FORWARDED_FOR_LOG_CHARS));
  const forwardedFor = text.length > FORWARDED_FOR_LOG_CHARS ? `${excerpt}… (${text.length} characters)` : excerpt;
  return { forwardedFor, forwardedForHops: hops };
}

/**
 * The judged address as it may be logged and answered: an address is shown, anything else
 * (a client can write any text into X-Forwarded-For) is only described.
 */
export function shownAddress(address: string): string {
  return isIP(address) ? address : `(not an IP address, ${address.length} characters)`;
}
