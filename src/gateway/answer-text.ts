import { parse as parseContentType } from 'content-type';
import iconv from 'iconv-lite';
import { KOREAN_CHARSET } from '../euc-kr';

const EUC_KR_NAMES = new Set(['euc-kr', 'euckr', 'cp949', 'ks_c_5601-1987', 'x-windows-949', 'windows-949', 'uhc']);

/**
 * The text of a gateway answer, in the charset its Content-Type names. A Korean gateway may
 * answer in EUC-KR (read as UTF-8, its `resMsg`, the only reason given for a refusal, turned
 * to U+FFFD), and a UTF-8 byte order mark before the JSON made a `0000` unreadable: a
 * cancellation the gateway had made was resent until it counted as failed. A charset nobody
 * knows is read as UTF-8, so an ASCII `resCd` is still seen.
 */
export function answerText(bytes: Buffer, contentType: string | null): string {
  const charset = charsetOf(contentType);
  if (charset && EUC_KR_NAMES.has(charset)) return iconv.decode(bytes, KOREAN_CHARSET);
  if (charset && charset !== 'utf-8' && charset !== 'utf8' && iconv.encodingExists(charset)) return iconv.decode(bytes, charset);
  // TextDecoder drops a leading BOM; iconv-lite does the same for the charsets above.
  return new TextDecoder('utf-8').decode(bytes);
}

function charsetOf(contentType: string | null): string | undefined {
  if (!contentType) return undefined;
  try {
    return parseContentType(contentType).parameters.charset?.toLowerCase();
  } catch {
    return undefined;
  }
}
