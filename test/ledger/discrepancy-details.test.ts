import { detailsText } from '../../src/cli/order-money';
import { translatorFor } from '../../src/console/i18n/translator';
import { discrepancyDetails } from '../../src/console/pages/resolve-form';
import type { Discrepancy } from '../../src/ledger/order-record';

const conflict = { pgCno: 'PG-1', storedAmount: 12000, redeliveredAmount: 1200, storedResCd: '0000' };
const refusal = { rejectionId: 42, notiType: '10', pgCno: 'PG-2' };
const doubled = { payments: 2, expected: 12000, largestPayment: 12000, remaining: 24000 };

function consoleText(details: Discrepancy['details']): string {
  const discrepancy = { id: 'dsc_1', kind: 'conflicting_notification', details, eventIds: [], openedAt: '', resolvedAt: null, resolvedBy: null, note: null } as unknown as Discrepancy;
  return discrepancyDetails(translatorFor('en'), discrepancy, 'KRW').text.replace(/<[^>]+>/g, '');
}

test("the console and the CLI show the same details of a discrepancy as money, and only those", () => {
  expect(detailsText(conflict, 'KRW')).toBe('pgCno PG-1, storedAmount ₩12,000, redeliveredAmount ₩1,200, storedResCd 0000');
  expect(consoleText(conflict)).toContain('storedAmount: ₩12,000, redeliveredAmount: ₩1,200');
  expect(detailsText(refusal, 'KRW')).toBe('rejectionId 42, notiType 10, pgCno PG-2');
  expect(consoleText(refusal)).toContain('rejectionId: 42,');
  expect(consoleText(refusal)).not.toContain('₩');
  expect(detailsText(doubled, 'KRW')).toBe('payments 2, expected ₩12,000, largestPayment ₩12,000, remaining ₩24,000');
  expect(consoleText(doubled)).toContain('payments: 2, expected: ₩12,000');
});
