import { InvalidNotification } from '../errors';

/**
 * The gateway's notifications are flat objects of strings; a few levels leave room for
 * fields it may add. Thousands of levels (still under the size limit) are hostile: they
 * overflow the stack of whatever walks the parsed value (validation, hashing, logging).
 */
export const MAX_JSON_DEPTH = 32;

/** What the bracket scan saw: enough to know when plain `JSON.parse` reads a body exactly. */
export interface JsonShape {
  /** Deepest nesting of objects and arrays (1: a flat object). */
  depth: number;
  /** Colons outside strings at depth 1: one per field of a flat object. */
  topLevelFields: number;
  /** A digit or minus sign outside strings: a bare number, which only lossless parsing keeps exact. */
  bareNumber: boolean;
}

/**
 * Refuses JSON nested deeper than `maxDepth` before it is parsed, by counting brackets in
 * the raw bytes outside strings, and says what else it saw on the way (see JsonShape). Every
 * byte it looks at is ASCII, so UTF-8 text needs no decoding first; malformed input is left
 * to the parser to describe.
 */
export function scanJson(raw: Uint8Array, maxDepth = MAX_JSON_DEPTH): JsonShape {
  let depth = 0;
  let deepest = 0;
  let topLevelFields = 0;
  let bareNumber = false;
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
      if (depth > deepest) deepest = depth;
    } else if (byte === 0x7d /* } */ || byte === 0x5d /* ] */) {
      depth -= 1;
    } else if (byte === 0x3a /* : */) {
      if (depth === 1) topLevelFields += 1;
    } else if ((byte >= 0x30 && byte <= 0x39) || byte === 0x2d /* - */) {
      bareNumber = true;
    }
  }
  return { depth: deepest, topLevelFields, bareNumber };
}
