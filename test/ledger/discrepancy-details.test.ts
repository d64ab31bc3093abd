import { detailsText } from '../../src/cli/order-money';
import { translatorFor } from '../../src/console/i18n/translator';
import { discrepancyDetails } from '../../src/console/pages/resolve-form';
import type { Discrepancy } from '../../src/ledger/fold/order-record';

const conflict = { pgCno: 'PG-1', storedAmount: 12000, redeliveredAmount: 1200, storedResCd: '0000' };
const refusal = { rejectionId: 42, notiType: '10', pgCno: 'PG-2' };
const doubled = { payments: 2, expected: 12000, largestPayment: 12000, remaining: 24000 };
/** One pgCno under two orders (issue 35 item 3): the conflict names both orders. */
const twoOrders = {
  pgCno: 'PG-3', notiType: '10', storedAmount: 1000, redeliveredAmount: 1000,
  storedMallId: 'T0001234', storedShopOrderNo: 'ORD-A', redeliveredMallId: 'T0001234', redeliveredShopOrderNo: 'ORD-B',
};

function consoleText(details: Discrepancy['details'], locale: 'en' | 'ko' = 'en'): string {
  const discrepancy = { id: 'dsc_1', kind: 'conflicting_notification', details, eventIds: [], openedAt: '', resolvedAt: null, resolvedBy: null, note: null } as unknown as Discrepancy;
  return discrepancyDetails(translatorFor(locale), discrepancy, 'KRW').text.replace(/<[^>]+>/g, '');
}

// The console names the details in the page's words (issue 35 item 18); the CLI prints their JSON names.
test("the console and the CLI show the same details of a discrepancy as money, and only those", () => {
  expect(detailsText(conflict, 'KRW')).toBe('pgCno PG-1, storedAmount ₩12,000, redeliveredAmount ₩1,200, storedResCd 0000');
  expect(consoleText(conflict)).toContain('stored amount: ₩12,000, redelivered amount: ₩1,200');
  expect(detailsText(refusal, 'KRW')).toBe('rejectionId 42, notiType 10, pgCno PG-2');
  expect(consoleText(refusal)).toContain('rejection: 42,');
  expect(consoleText(refusal)).not.toContain('₩');
  expect(detailsText(doubled, 'KRW')).toBe('payments 2, expected ₩12,000, largestPayment ₩12,000, remaining ₩24,000');
  expect(consoleText(doubled)).toContain('payments: 2, expected: ₩12,000');
});

test('a conflict that names two orders names them in the page\'s words, in Korean too', () => {
  expect(consoleText(twoOrders, 'ko')).toContain('저장된 주문번호: ORD-A, 재전송 상점 ID: T0001234, 재전송 주문번호: ORD-B');
  expect(consoleText(twoOrders, 'ko')).not.toMatch(/stored|redelivered/i);
  expect(consoleText(twoOrders)).toContain('stored order: ORD-A, redelivered mall: T0001234, redelivered order: ORD-B');
});
