import { typedAmount } from '../../src/console/search-query';

describe('an amount typed into the search box', () => {
  it.each([
    ['12000', 12000, null],
    ['12,000', 12000, null],
    ['12000원', 12000, 'KRW'],
    ['₩12,000', 12000, 'KRW'],
    ['12,000 원', 12000, 'KRW'],
    ['KRW 12000', 12000, 'KRW'],
    ['$12.03', 1203, 'USD'],
    ['USD 12.03', 1203, 'USD'],
    ['$12', 1200, 'USD'],
  ])('%s is %d in minor units (%s)', (text, amount, currency) => {
    expect(typedAmount(text, 'KRW')).toEqual({ amount, currency });
  });

  it('reads a bare number in the default currency, decimals included', () => {
    expect(typedAmount('12.03', 'USD')).toEqual({ amount: 1203, currency: null });
    expect(typedAmount('12', 'USD')).toEqual({ amount: 1200, currency: null });
  });

  it.each(['ORD-12000', 'ORD12000', '1,2,3', '12.5', '$12.034', '₩12,000 USD', 'abc', ''])('%s is no amount', (text) => {
    expect(typedAmount(text, 'KRW')).toBeNull();
  });
});
