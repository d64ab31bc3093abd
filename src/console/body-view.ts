import iconv from 'iconv-lite';
import { decodeBody } from '../notifications/decode-body';
import { maskFreeText, maskSensitive, type MaskMemo } from '../observability/mask';

export type BodyView =
  | { kind: 'pruned' }
  | { kind: 'fields'; fields: Array<[string, string]>; bytes: number }
  | { kind: 'text'; text: string; bytes: number };

/**
 * A stored body as the operator should read it: decoded the way the receiver decodes it (JSON as
 * UTF-8, forms as EUC-KR unless named), personal data masked like the logs, by field name and
 * by value. `memo`: the page's (see MaskMemo). What it returns is masked: written to a page as it is.
 */
export function bodyView(rawBody: Buffer | Uint8Array | null, contentType: string | null, memo?: MaskMemo): BodyView {
  if (!rawBody || rawBody.length === 0) return { kind: 'pruned' };
  const raw = Buffer.from(rawBody);
  try {
    const masked = maskSensitive(decodeBody(raw, contentType ?? undefined), memo) as Record<string, unknown>;
    return {
      kind: 'fields',
      bytes: raw.length,
      fields: Object.entries(masked).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]),
    };
  } catch {
    // Not decodable into fields: masked as free text (names beside personal keys, percent-encoded
    // form values decoded first, e-mail addresses, resident and phone numbers, long digit runs).
    const text = /euc-kr|x-www-form-urlencoded/i.test(contentType ?? '') ? iconv.decode(raw, 'cp949') : raw.toString('utf8');
    return { kind: 'text', bytes: raw.length, text: maskFreeText(text.slice(0, 20_000)) };
  }
}
