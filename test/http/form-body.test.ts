import iconv from 'iconv-lite';
import { parseFormBody } from '../../src/notifications/form-urlencoded';

/** Percent-escapes a string's bytes in the charset, every byte (what a gateway's client may send). */
const escaped = (text: string, charset: string) => [...iconv.encode(text, charset)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

describe('form bodies decoded byte by byte', () => {
  test('percent-escapes in either case, plus as space, and stray percent signs as written', () => {
    const body = Buffer.from('a=%41%4a%4A&b=x+y%2B&c=100%25&d=%zz%4&e=%', 'latin1');
    expect(parseFormBody(body, 'cp949')).toEqual({ a: 'AJJ', b: 'x y+', c: '100%', d: '%zz%4', e: '%' });
  });

  test('EUC-KR names and values, escaped or raw, next to ASCII ones', () => {
    const body = Buffer.concat([
      Buffer.from(`name=${escaped('홍길동', 'cp949')}&`, 'latin1'),
      Buffer.from('raw=', 'latin1'), iconv.encode('결제', 'cp949'),
      Buffer.from(`&${escaped('상품', 'cp949')}=1&amount=1000`, 'latin1'),
    ]);
    expect(parseFormBody(body, 'cp949')).toEqual({ name: '홍길동', raw: '결제', 상품: '1', amount: '1000' });
  });

  test('bytes the charset does not define are refused, in names and in values', () => {
    expect(() => parseFormBody(Buffer.from('a=%ff%ff', 'latin1'), 'cp949')).toThrow(/not valid CP949/);
    expect(() => parseFormBody(Buffer.from('a=%ff', 'latin1'), 'utf-8')).toThrow(/not valid UTF-8/);
  });

  test('a charset that is not ASCII-compatible is decoded in full', () => {
    const body = Buffer.concat([iconv.encode('a', 'utf-16le'), Buffer.from('=', 'latin1'), iconv.encode('b', 'utf-16le')]);
    expect(parseFormBody(body, 'utf-16le')).toEqual({ a: 'b' });
  });
});
