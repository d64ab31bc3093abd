import request from 'supertest';
import { createAdminApp } from '../../src/admin/admin-app';
import type { CommandDeps } from '../../src/commands/command-deps';
import { PAYMENTS_PER_PAGE } from '../../src/console/payment-page';
import { createMetrics } from '../../src/observability/metrics';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { HOST, ORIGIN } from './console-harness';
import { startLedgerConsole, type LedgerConsole } from './ledger-console-harness';

const MALL = 'T0001234';
const PAYMENTS = 200;
/** Each payment's notification carries a large field, as a real one with a long basket or memo can. */
const LARGE = '홍길동 010-1234-5678 '.repeat(300);

/**
 * An order that holds hundreds of payments: its page reads and masks a page of them, never all,
 * and counts and sums the rest from the ledger's record; the cancel confirmation reads only the
 * payment being cancelled.
 */
describe('an order of many payments', () => {
  let h: LedgerConsole;
  const shopOrderNo = `ORD-MANY-${Date.now()}`;
  const pgCno = (n: number) => `PGMANY${String(n).padStart(4, '0')}`;

  beforeAll(async () => {
    h = await startLedgerConsole();
    // A wallet order, so each payment has a Cancel that the confirmation is asked for.
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/${shopOrderNo}/expectation`, { amount: 1000, currency: 'KRW', method: 'wallet', expiresAt: null }).expect(200);
    for (let n = 1; n <= PAYMENTS; n += 1) {
      await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: pgCno(n), amount: '1000', transactionDate: kstStamp(new Date()), shopValue1: LARGE })).expect(200);
    }
    // The API answers 503 while the ledger is behind: wait for it to apply the 200, however loaded the machine.
    await h.ledgerApp.stores.ledger.caughtUp(240_000);
    const record = (await h.ledgerApp.api.get(`/v1/orders/${MALL}/${shopOrderNo}`).expect(200)).body as { payments: unknown[] };
    expect(record.payments).toHaveLength(PAYMENTS);
  }, 300_000);
  afterAll(async () => h.close());

  const readsDuring = async <T>(work: () => Promise<T>): Promise<{ result: T; reads: number }> => {
    const spy = jest.spyOn(h.consoleDeps.store, 'getEvent');
    try {
      const result = await work();
      return { result, reads: spy.mock.calls.length };
    } finally {
      spy.mockRestore();
    }
  };

  test('the order page reads a page of payments, shows the rest as a count and a sum, and links to the next page', async () => {
    const { agent } = await h.signIn('viewer-many', 'viewer');
    const { result: page, reads } = await readsDuring(() => agent.get(`/console/orders/${MALL}/${shopOrderNo}`).set('Host', HOST).set('Accept-Language', 'en').expect(200));
    expect(reads).toBe(PAYMENTS_PER_PAGE);
    const detailed = [...page.text.matchAll(/<div class="payment" data-pg-cno="([^"]+)">/g)].map((m) => m[1]);
    expect(detailed).toHaveLength(PAYMENTS_PER_PAGE);
    expect(page.text).toContain(`Payments 1 to ${PAYMENTS_PER_PAGE} of ${PAYMENTS}.`);
    expect(page.text).toContain(`The other ${PAYMENTS - PAYMENTS_PER_PAGE} payments hold <span class="money">₩${(PAYMENTS - PAYMENTS_PER_PAGE).toLocaleString('en-US')},000</span> in all.`);
    expect(page.text).toContain(`href="/console/orders/${MALL}/${shopOrderNo}?payments=2"`);
    expect(page.text).not.toContain('010-1234-5678');

    const second = await readsDuring(() => agent.get(`/console/orders/${MALL}/${shopOrderNo}?payments=2`).set('Host', HOST).set('Accept-Language', 'ko-KR').expect(200));
    expect(second.reads).toBe(PAYMENTS_PER_PAGE);
    const secondShown = [...second.result.text.matchAll(/<div class="payment" data-pg-cno="([^"]+)">/g)].map((m) => m[1]);
    expect(secondShown[0]).not.toBe(detailed[0]);
    expect(secondShown.some((p) => detailed.includes(p))).toBe(false);
    expect(second.result.text).toContain(`결제 ${PAYMENTS}건 중 ${PAYMENTS_PER_PAGE + 1}~${2 * PAYMENTS_PER_PAGE}번째.`);
    expect(second.result.text).toContain('?payments=1');
    expect(second.result.text).toContain('?payments=3');

    // A page past the last is the last: the remainder, and no link further on.
    const last = await readsDuring(() => agent.get(`/console/orders/${MALL}/${shopOrderNo}?payments=999`).set('Host', HOST).set('Accept-Language', 'en').expect(200));
    expect(last.reads).toBe(PAYMENTS % PAYMENTS_PER_PAGE || PAYMENTS_PER_PAGE);
    expect(last.result.text).not.toContain('rel="next"');
  });

  test('the cancel confirmation reads only the payment being cancelled', async () => {
    // The console with the command machinery present (the confirmation sends nothing: a GET).
    const admin = createAdminApp({
      store: h.consoleDeps.store,
      publisher: { kind: 'none', publish: async () => undefined, status: () => ({ connected: false, detail: 'none' }), close: async () => undefined },
      relay: null,
      metrics: createMetrics(),
      isShuttingDown: () => false,
      console: { ...h.consoleDeps, gatewayCommands: {} as CommandDeps },
    });
    const token = await h.addOperator('boss-many', 'admin');
    const agent = request.agent(admin);
    await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token }).expect(303);
    const { result: page, reads } = await readsDuring(() => agent.get(`/console/orders/${MALL}/${shopOrderNo}/cancel?pgCno=${pgCno(PAYMENTS)}&type=full`).set('Host', HOST).set('Accept-Language', 'en').expect(200));
    expect(reads).toBe(1);
    expect(page.text).toContain(pgCno(PAYMENTS));
  });
});
