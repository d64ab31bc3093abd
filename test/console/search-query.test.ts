import { typedAmountIn, typedAmounts } from '../../src/console/search-query';

const krw = (amount: number) => ({ amount, currency: 'KRW' });
const usd = (amount: number) => ({ amount, currency: 'USD' });

describe('an amount typed into the search box', () => {
  it.each([
    ['12000원', 12000],
    ['12,000원', 12000],
    ['12,000 원', 12000],
    ['₩12,000', 12000],
    ['￦12,000', 12000],
    ['￦１２，０００', 12000],
    ['KRW 12000', 12000],
    ['krw12,000', 12000],
    ['12000 KRW', 12000],
    ['12000won', 12000],
    ['₩12,000원', 12000],
    ['₩12,000.00', 12000],
    ['1만2천원', 12000],
    ['1만 2천원', 12000],
    ['1.2만원', 12000],
    ['만2천원', 12000],
    ['12만 3,400원', 123400],
    ['1,200만원', 12000000],
    ['3억 5천만원', 350000000],
    ['2천3백원', 2300],
    ['5백원', 500],
    ['1.5천원', 1500],
    ['1만2천3원', 12003],
  ])('%s is ₩%d, in won only', (text, amount) => {
    expect(typedAmounts(text, 'KRW')).toEqual([krw(amount)]);
  });

  it.each([
    ['US$12.03', 1203],
    ['US $12.03', 1203],
    ['$12.03', 1203],
    ['＄12.03', 1203],
    ['12.03 USD', 1203],
    ['12.03USD', 1203],
    ['USD 12.03', 1203],
    ['usd12.03', 1203],
    ['12.03$', 1203],
    ['12.03 US$', 1203],
    ['$12', 1200],
    ['$1,200.50', 120050],
    ['$12.030', 1203],
    ['12달러', 1200],
    ['USD $12.03', 1203],
    ['USD$12.03', 1203],
  ])('%s is %d cents, in dollars only', (text, amount) => {
    expect(typedAmounts(text, 'KRW')).toEqual([usd(amount)]);
  });

  it.each([
    ['12000', [krw(12000), usd(1200000)]],
    ['12,000', [krw(12000), usd(1200000)]],
    ['１２０００', [krw(12000), usd(1200000)]],
    ['  12000  ', [krw(12000), usd(1200000)]],
    ['1만2천', [krw(12000), usd(1200000)]],
    ['12.03', [usd(1203)]],
    ['12.5', [usd(1250)]],
    ['12.00', [usd(1200)]],
    ['1.23456만', [usd(1234560)]],
  ])('a bare %s is read in each currency\'s major unit, never as minor units of another', (text, readings) => {
    expect(typedAmounts(text, 'KRW')).toEqual(readings);
  });

  it('reads a bare number in the mall\'s default currency too', () => {
    expect(typedAmounts('12', 'JPY')).toEqual([krw(12), usd(1200), { amount: 12, currency: 'JPY' }]);
    expect(typedAmounts('JPY 12', 'JPY')).toEqual([{ amount: 12, currency: 'JPY' }]);
    expect(typedAmounts('12.03', 'USD')).toEqual([usd(1203)]);
  });

  it.each([
    'ORD-12000', 'ORD12000', 'EUR 12', '1,2,3', '12,00', '12.034 USD', '$12.034', '₩12,000 USD', '12.5원', '₩12.5',
    'abc', '', '원', '만원', '$', '-12000', '12 000', '.5', '12천', '2만 1만', '1만 12000', '1.5만 300', '3백2천', '12백',
    '99999999999999999999', 'USD ₩12', '$$$12',
  ])('%s is no amount', (text) => {
    expect(typedAmounts(text, 'KRW')).toEqual([]);
  });
});

describe('an amount typed for one order\'s currency (a cancel)', () => {
  it('reads a bare number in that currency, and refuses another currency', () => {
    expect(typedAmountIn('3,000', 'KRW')).toBe(3000);
    expect(typedAmountIn('3천원', 'KRW')).toBe(3000);
    expect(typedAmountIn('12.03', 'USD')).toBe(1203);
    expect(typedAmountIn('US$12.03', 'USD')).toBe(1203);
    expect(typedAmountIn('12.03', 'KRW')).toBeNull();
    expect(typedAmountIn('$12', 'KRW')).toBeNull();
    expect(typedAmountIn('3000원', 'USD')).toBeNull();
  });
});
