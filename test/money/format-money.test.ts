import { formatMoney, minorToDecimalText, minorUnitDigits } from '../../src/money/format-money';

test('won have no minor unit and dollars two decimals, as Intl knows them', () => {
  expect(minorUnitDigits('KRW')).toBe(0);
  expect(minorUnitDigits('USD')).toBe(2);
  expect(formatMoney(12000, 'KRW')).toBe('₩12,000');
  expect(formatMoney(1203, 'USD')).toBe('$12.03');
  expect(formatMoney(-12000, 'KRW')).toBe('-₩12,000');
});

test('Korean readers see won written as 원 after the figure', () => {
  expect(formatMoney(12000, 'KRW', 'ko-KR')).toBe('12,000원');
  expect(formatMoney(1203, 'USD', 'ko-KR')).toBe('US$12.03');
});

test('every digit of a large amount survives (no float division)', () => {
  expect(minorToDecimalText(9007199254740991, 2)).toBe('90071992547409.91');
  expect(formatMoney(9007199254740991, 'USD')).toBe('$90,071,992,547,409.91');
  expect(minorToDecimalText(5, 2)).toBe('0.05');
  expect(minorToDecimalText(-5, 2)).toBe('-0.05');
});

test('an unknown currency is named, not guessed', () => {
  expect(formatMoney(1203, 'XYZ1')).toBe('1,203 XYZ1 (minor units)');
});
