import { maskFreeText, maskSensitive } from '../../src/observability/mask';

/**
 * Phones and resident numbers are found by shape, and the shape holds however the digits and
 * separators are written: full-width (`０１０`), Arabic-Indic, Devanagari digits, dots, slashes,
 * no-break and ideographic spaces, en dashes, minus signs, tabs, escapes (issue 35, items 7-9:
 * "phones in full-width digits not masked").
 */
const scripts: Array<[string, number]> = [['ASCII', 0x30], ['full-width', 0xff10], ['Arabic-Indic', 0x660], ['Devanagari', 0x966]];
const inScript = (text: string, zero: number) => text.replace(/[0-9]/g, (digit) => String.fromCharCode(zero + Number(digit)));
const separators = ['-', '', ' ', '.', '/', '\u00a0', '\u2005', '\u3000', '\u2013', '\u2212', '\uff0d', '\t', '%2D', '\\u2013', '&ndash;'];

const shopValue = (value: string) => (maskSensitive({ shopValue2: value }) as { shopValue2: string }).shopValue2;

describe('phones and resident numbers in any digits and separators', () => {
  it.each(scripts)('a mobile number in %s digits with every separator keeps only its last four digits', (_script, zero) => {
    for (const separator of separators) {
      const phone = ['010', '1234', '5678'].map((group) => inScript(group, zero)).join(separator);
      const out = shopValue(`연락처 ${phone} 문자`);
      expect(out).toBe(`연락처 ${phone.replace(inScript('010', zero), '***').replace(inScript('1234', zero), '****')} 문자`);
    }
  });

  it('a landline and an international number in full-width digits', () => {
    expect(shopValue('전화 ０２－１２３－４５６７')).toBe('전화 **－***－４５６７');
    expect(shopValue('+８２ １０ ９８７６ ５４３２')).toBe('+** ** **** ５４３２');
  });

  it('a resident number in full-width digits is masked whole, in a field and in free text', () => {
    expect(shopValue('주민번호 ９００１０１－１２３４５６７')).toBe('주민번호 ******－*******');
    expect(maskFreeText('rrn ٩٠٠١٠١-١٢٣٤٥٦٧ end')).toBe('rrn ******-******* end');
  });

  it('a phone written against a Korean word is still a phone, in any digits', () => {
    expect(shopValue('전화01012345678 문의')).toBe('전화*******5678 문의');
    expect(shopValue('홍길동０１０－１２３４－５６７８')).toBe('홍길동***－****－５６７８');
  });

  it('the folded reading only adds: what the text as it stands shows as a resident number or phone stays masked', () => {
    expect(shopValue('9001011234567１２３４')).toBe('*************１２３４');
    expect(shopValue('tel 010-1234-5678０')).toBe('tel ***-****-5678０');
  });

  it('in text without structure, an account number keeps its last four digits whatever separates its groups', () => {
    for (const separator of ['-', '.', '/', '\u00a0', '\u2013', '\u3000', '\uff0f']) {
      expect(maskFreeText(`acct ${['110', '123', '456789'].join(separator)} end`)).toBe(`acct ${['***', '***', '**6789'].join(separator)} end`);
    }
    expect(maskFreeText('acct １１０．１２３．４５６７８９')).toBe('acct ***．***．**６７８９');
  });

  it('ids, amounts and dates in full-width digits stay readable', () => {
    const fields = { shopOrderNo: 'ORD０１０１２３４５６７８', amount: '１０００００００', memo: '２０２６．１１．２８ 배송' };
    expect(maskSensitive(fields)).toEqual(fields);
  });

  it('a long field of full-width digit soup is masked in one pass, the phones in it found', () => {
    const soup = '０１０\u3000１２３４\u2013５６７８ a４１１１１ '.repeat(4000);
    const out = shopValue(soup);
    expect(out.includes('１２３４\u2013')).toBe(false);
    expect(out.length).toBe(soup.length);
  });
});
