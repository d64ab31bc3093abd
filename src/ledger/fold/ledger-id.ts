import { sha256Hex } from '../../sha256-hex';

/**
 * A stable id: a prefix and the first 128 bits of the SHA-256 of a JSON array of its parts (an
 * array, so no part can forge another id by containing a separator). The same parts give the
 * same id on every replica, every retry and every rebuild.
 */
export function ledgerId(prefix: string, parts: ReadonlyArray<string | number | null | readonly string[]>): string {
  return `${prefix}${sha256Hex(JSON.stringify(parts)).slice(0, 32)}`;
}
