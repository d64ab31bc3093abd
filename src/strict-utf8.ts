/**
 * The one UTF-8 decoder that refuses invalid bytes instead of replacing them, shared by every
 * request: without `stream` a decode keeps no state between calls, a failed one included.
 */
export const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
