import { ORDER_STATUSES } from '../../src/ledger/fold/order-record';
import { translatorFor } from '../../src/console/i18n/translator';
import { orderStatusBadge } from '../../src/console/pages/order-status-badge';

describe('an order status badge', () => {
  const tone = (status: (typeof ORDER_STATUSES)[number]) => /class="badge (\w+)"/.exec(orderStatusBadge(translatorFor('ko'), status).text)?.[1];

  test('only paid is green: cancelled, partly cancelled, underpaid and overpaid orders are not to be shipped on it', () => {
    expect(ORDER_STATUSES.filter((status) => tone(status) === 'delivered')).toEqual(['paid']);
    expect([tone('cancelled'), tone('partially_cancelled')]).toEqual(['reversed', 'reversed']);
    expect([tone('underpaid'), tone('overpaid')]).toEqual(['pending', 'pending']);
  });
});
