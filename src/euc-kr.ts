import iconv from 'iconv-lite';

/**
 * The gateway counts field lengths in EUC-KR bytes: a Hangul syllable is 2 bytes there
 * (3 in UTF-8). CP949 is EUC-KR's superset and the encoding the gateway really emits, so
 * extended Hangul (e.g. 똠, 햏) is counted and decoded rather than replaced.
 */
export const KOREAN_CHARSET = 'cp949';

const ASCII = /^[\x00-\x7f]*$/;

export function eucKrByteLength(text: string): number {
  // Most fields are ASCII (ids, codes, amounts, dates): one byte a character, no encoding needed.
  return ASCII.test(text) ? text.length : iconv.encode(text, KOREAN_CHARSET).length;
}
