import iconv from 'iconv-lite';

/**
 * The gateway counts field lengths in EUC-KR bytes: a Hangul syllable is 2 bytes there
 * (3 in UTF-8). CP949 is EUC-KR's superset and the encoding the gateway really emits, so
 * extended Hangul (e.g. 똠, 햏) is measured and decoded rather than replaced.
 */
export const KOREAN_CHARSET = 'cp949';

export function eucKrByteLength(text: string): number {
  return iconv.encode(text, KOREAN_CHARSET).length;
}
