import { maskFreeText, maskSensitive } from '../../src/observability/mask';

const masked = (value: Record<string, unknown>) => maskSensitive(value) as Record<string, unknown>;

describe('masking by value, not only by field name', () => {
  it('fields the catalogue does not name are masked by what they hold', () => {
    const out = masked({
      hpNo: '01012345678',
      buyerHp: '010-9876-5432',
      residentNo: '900101-1234567',
      shopValue1: 'kim.minsu@example.co.kr',
      shopValue2: '홍길동 010-1234-5678',
      shopValue3: 'buyerName=이영희&tel=+82-10-2222-3333',
      memo: '주민번호 8501012345678 확인',
    });
    expect(out.hpNo).toBe('*******5678');
    expect(out.buyerHp).toBe('***-****-5432');
    expect(out.residentNo).toBe('******-*******');
    expect(out.shopValue1).toBe('k***@example.co.kr');
    // A name is masked by the field it stands in, not by standing beside a phone (issue 35 item 9).
    expect(out.shopValue2).toBe('홍길동 ***-****-5678');
    expect(out.shopValue3).toBe('buyerName=이**&tel=***-**-****-3333');
    expect(out.memo).toBe('주민번호 ************* 확인');
  });

  it('a name in a shop\'s own object is masked by its field, not by standing beside a phone or e-mail field', () => {
    const out = masked({ shopValue3: { buyerName: '이영희', tel: '+82 10 4444 5555' }, shopValue4: { name: '남궁민수', mail: 'nam@example.com' } });
    expect(out.shopValue3).toEqual({ buyerName: '이**', tel: '*** ** **** 5555' });
    expect(out.shopValue4).toEqual({ name: '남***', mail: 'n***@example.com' });
    // A field that does not hold a name is shown, whatever stands beside it (issue 35 item 9).
    expect(masked({ shopValue3: { who: '이영희', tel: '+82 10 4444 5555' } }).shopValue3).toEqual({ who: '이영희', tel: '*** ** **** 5555' });
    // Without a contact beside it, a Korean word is only a word (a product, a bank).
    expect(masked({ shopValue5: { item: '사과', bank: '국민은행' } }).shopValue5).toEqual({ item: '사과', bank: '국민은행' });
  });

  it('money, codes and flags that only share a word with a personal field stay readable', () => {
    const fields = { cardAmount: '50000', multiCardAmount: '12000', cardGubun: 'N', cardBizGubun: 'P', mobileCd: 'SKT', subCardCd: '123', mobileAnsimUsed: 'Y' };
    expect(masked(fields)).toEqual(fields);
    // The personal ones beside them still are masked.
    expect(masked({ cardNo: '5361481234561234', mobileNo: '01012345678', customerName: '홍길동' })).toEqual({
      cardNo: '************1234', mobileNo: '*******5678', customerName: '홍**',
    });
  });

  it('ids, amounts and dates that merely look numeric are not taken for phones or resident numbers', () => {
    const fields = { pgCno: '26112210012345678901', amount: '1000000', transactionDate: '20261122093015', shopOrderNo: 'ORD01012345678', approvalNo: '12345678' };
    expect(masked(fields)).toEqual(fields);
  });

  it('unparsable text: names next to personal keys, e-mail addresses, resident numbers and phones', () => {
    const text = '{"customerName" : "Hong Gildong", \'depositName\': \'김철수\', customerMail: hong@example.com, rrn 900101-2345678, tel +82 10 1234 5678';
    const out = maskFreeText(text);
    expect(out).not.toMatch(/Gildong|철수|hong@|900101|2345678|1234 5678/);
    expect(out).toContain('"customerName" : "H');
    expect(out).toContain('h***@example.com');
    expect(out).toContain('5678');
  });

  it('percent-encoded form values are decoded, masked and shown (EUC-KR or UTF-8)', () => {
    // 홍길동 in EUC-KR, and an e-mail address with its @ escaped.
    expect(maskFreeText('res_cd=0000&depositName=%C8%AB%B1%E6%B5%BF&amount=1000')).toBe('res_cd=0000&depositName=홍**&amount=1000');
    expect(maskFreeText('order_no=A1&note=hong%40example.com')).toBe('order_no=A1&note=h***@example.com');
    expect(maskFreeText(`customerName=${encodeURIComponent('김영수')}`)).toBe('customerName=김**');
  });

  it('a field that is a person by its name, and a name in an XML body', () => {
    expect(masked({ buyer: '홍길동', orderer: 'Kim', customerId: 'C-1001' })).toEqual({ buyer: '홍**', orderer: 'K**', customerId: 'C-1001' });
    expect(maskFreeText('<order><customerName>홍길동</customerName><amount>1000</amount></order>')).toBe(
      '<order><customerName>홍**</customerName><amount>1000</amount></order>',
    );
  });
});
