import { LEDGER_RESOLVER, NO_LONGER_HOLDS } from '../../src/ledger/fold/discrepancy-lifecycle';
import type { Discrepancy, OrderRecord } from '../../src/ledger/fold/order-record';
import { translatorFor } from '../../src/console/i18n/translator';
import { discrepanciesPage } from '../../src/console/pages/discrepancies-page';
import type { Viewer } from '../../src/console/pages/layout';
import { orderPage } from '../../src/console/pages/order-page';
import type { ListedDiscrepancy } from '../../src/ledger/projector/ledger-store';

/** A page's text as a person reads it: tags dropped, entities decoded, spaces folded. */
const readable = (page: string) => page.replace(/<\/t[dh]>|<\/a>/g, ' ').replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/\s+/g, ' ');
/** The part of a page a person reads, without the frame (menu, header). */
const mainOf = (page: string) => readable(page.slice(page.indexOf('<main>')));
const viewer = (locale: 'ko' | 'en'): Viewer => ({ actor: 'kim (10.0.0.7)', role: 'operator', csrfToken: 'csrf', t: translatorFor(locale) });

const MALL = 'T0001234';
/** A payment 06:53:54 KST on the 28th, after the expectation expired at 06:52:54 KST (21:52:54Z on the 27th). */
const afterExpiry: Discrepancy = {
  id: 'dsc_expiry', kind: 'payment_after_expiry', eventIds: ['evt_pay'],
  details: { pgCno: '20261128065354000001', at: '2026-11-28T06:53:54+09:00', expiresAt: '2026-11-27T21:52:54.922Z' },
  openedAt: '2026-11-27T21:53:55.000Z', resolvedAt: null, resolvedBy: null, note: null,
};
/** An amount mismatch the ledger itself closed once the condition stopped holding. */
const closedByLedger: Discrepancy = {
  id: 'dsc_closed', kind: 'amount_mismatch', eventIds: ['evt_pay2'],
  details: { pgCno: '20261128065354000002', expected: 12000, notified: 1200 },
  openedAt: '2026-11-27T21:00:00.000Z', resolvedAt: '2026-11-27T22:00:00.000Z', resolvedBy: LEDGER_RESOLVER, note: NO_LONGER_HOLDS,
};
const twoPayments: Discrepancy = {
  id: 'dsc_dup', kind: 'duplicate_payment', eventIds: ['evt_a', 'evt_b'],
  details: { payments: 2, expected: 12000, largestPayment: 12000, remaining: 24000 },
  openedAt: '2026-11-27T21:00:00.000Z', resolvedAt: null, resolvedBy: null, note: null,
};
const listed = (d: Discrepancy): ListedDiscrepancy => ({ ...d, mallId: MALL, shopOrderNo: 'ORD-1' });
const discrepancies = (locale: 'ko' | 'en') => discrepanciesPage(viewer(locale), {
  open: [listed(afterExpiry), listed(twoPayments)], openCount: 2, resolved: [listed(closedByLedger)],
  openNext: null, resolvedNext: null, openAfter: null, resolvedAfter: null, currencies: {}, defaultCurrency: 'KRW',
}, null);
const order: OrderRecord = {
  mallId: MALL, shopOrderNo: 'ORD-1', status: 'discrepancy',
  expected: { amount: 12000, currency: 'KRW', method: 'card', source: 'expectation', expiresAt: '2026-11-27T21:52:54.922Z' } as OrderRecord['expected'],
  approved: 12000, cancelled: 0, remaining: 12000, deposited: 0, payments: [], cancels: [], deposits: [], escrow: null,
  cancellationsRequested: [], events: [], discrepancies: [afterExpiry, twoPayments, closedByLedger], updatedAt: '2026-11-27T22:00:00.000Z',
};

describe("a discrepancy's details and its resolution, in the page's language", () => {
  test.each(['discrepancies', 'order'] as const)('on the %s page every time is in KST in the locale\'s format, the details included', (which) => {
    for (const locale of ['ko', 'en'] as const) {
      const page = which === 'order' ? orderPage(viewer(locale), order, null, 'KRW') : discrepancies(locale);
      const text = mainOf(page);
      // No instant as stored (UTC `Z` or the gateway's offset) anywhere a person reads.
      expect({ locale, iso: text.match(/\d{4}-\d\d-\d\dT\d\d:\d\d[^ ]*/g) }).toEqual({ locale, iso: null });
      expect(text).toContain(locale === 'ko' ? '2026. 11. 28. 06:52:54 KST' : '2026-11-28 06:52:54 KST');
      expect(text).toContain(locale === 'ko' ? '2026. 11. 28. 06:53:54 KST' : '2026-11-28 06:53:54 KST');
    }
  });

  test.each(['discrepancies', 'order'] as const)('on the Korean %s page the details are named in Korean, amounts as money, and the ledger\'s own resolution is in Korean', (which) => {
    const text = mainOf(which === 'order' ? orderPage(viewer('ko'), order, null, 'KRW') : discrepancies('ko'));
    expect(text).toContain('만료 시각: 2026. 11. 28. 06:52:54 KST');
    expect(text).toContain('결제 건수: 2, 예상 금액: 12,000원, 가장 큰 결제: 12,000원, 잔액: 24,000원');
    expect(text).toContain('예상 금액: 12,000원, 통지 금액: 1,200원');
    expect(text).toContain('원장(자동)');
    expect(text).toContain('조건이 더 이상 성립하지 않아 자동으로 해결됨');
    for (const english of ['expected', 'notified', 'largestPayment', 'expiresAt', 'no longer holds', 'ledger:']) expect({ english, found: text.includes(english) }).toEqual({ english, found: false });
  });

  test('in English the same facts read as words, the stored name kept beside in the markup', () => {
    const page = discrepancies('en');
    expect(mainOf(page)).toContain('expected: ₩12,000, notified: ₩1,200');
    expect(mainOf(page)).toContain('largest payment: ₩12,000');
    expect(page).toContain('data-detail="largestPayment"');
    expect(mainOf(page)).toContain('by the ledger: the condition no longer holds');
  });
});
