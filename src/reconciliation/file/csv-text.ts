import iconv from 'iconv-lite';
import { STRICT_UTF8 } from '../../strict-utf8';

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * A CSV's text: UTF-8 when every byte decodes strictly (with or without a byte order mark),
 * otherwise CP949 (the superset of EUC-KR that Korean portals and Excel's "CSV" export write).
 * `null` when the bytes are neither: iconv-lite puts U+FFFD where CP949 has no character, so a
 * replacement character in the result means the file is not CP949 either (a CP949 file cannot
 * spell U+FFFD itself). A NUL is refused as well: a UTF-16 file decodes "validly" into NULs.
 */
export function decodeCsvText(bytes: Buffer): string | null {
  const body = bytes.subarray(0, 3).equals(UTF8_BOM) ? bytes.subarray(3) : bytes;
  let text: string | null = null;
  try {
    text = STRICT_UTF8.decode(body);
  } catch {
    const korean = iconv.decode(bytes, 'cp949');
    text = korean.includes('\uFFFD') ? null : korean;
  }
  return text === null || text.includes('\u0000') ? null : text;
}
