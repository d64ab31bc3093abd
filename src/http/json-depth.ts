import { InvalidNotification } from '../errors';

/**
 * The gateway's notifications are flat objects of strings; a few levels leave room for
 * fields it may add. Thousands of levels (still under the size limit) are hostile: they
 * overflow the stack of whatever walks the parsed value (validation, hashing, logging).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Refuses JSON nested deeper than `maxDepth` before it is parsed, by counting brackets in
 * the raw bytes outside strings. Every byte it looks at is ASCII, so UTF-8 text needs no
 * decoding first; malformed input is left to the parser to describe.
 */
export function assertJsonDepth(raw: Uint8Array, maxDepth = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i += 1) {
    const byte = raw[i]!;
    if (inString) {
      if (byte === 0x5c /* \ */) i += 1;
      else if (byte === 0x22 /* " */) inString = false;
    } else if (byte === 0x22) {
      inString = true;
    } else if (byte === 0x7b /* { */ || byte === 0x5b /* [ */) {
      depth += 1;
      if (depth > maxDepth) throw new InvalidNotification(`JSON nested deeper than ${maxDepth} levels`);
    } else if (byte === 0x7d /* } */ || byte === 0x5d /* ] */) {
      depth -= 1;
    }
  }
}
