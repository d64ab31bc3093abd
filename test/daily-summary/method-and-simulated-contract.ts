import { unionPayFields } from '../../src/simulator/notification-builders';
import type { SummaryDay } from '../../src/ledger/summary/summary-days';
import { at, notifications, notify, received, type OrderRef } from './summary-kit';
import type { SummaryStores } from './summary-contract';

const DEFAULT = 'KRW';
const DAY = '2026-11-22';

/** Payments split by the method the gateway reported, and the simulator's orders summed apart, on each database (summary-store.test.ts). */
export function methodAndSimulatedContract(openFresh: () => Promise<SummaryStores>): void {
  let s: SummaryStores;
  beforeEach(async () => {
    s = await openFresh();
  });
  afterEach(async () => s.cleanup());

  const day = async (mallId: string): Promise<SummaryDay | undefined> =>
    (await s.stores.ledger.dailySummary({ from: DAY, to: DAY, mallId }, DEFAULT)).find((d) => d.date === DAY);
  const rebuild = async () => {
    let after: number | null = null;
    do after = (await s.stores.ledger.rebuildPage(after, 50, at(5000).toISOString())).next;
    while (after !== null);
  };
  const unionPay = (o: OrderRef, cno: string, amount: number, payType: string | null, minutes: number) => {
    const fields: Record<string, string> = unionPayFields({ memb_id: o.mallId, order_no: o.shopOrderNo, cno, amount: String(amount) });
    if (payType === null) delete fields.pay_type;
    else fields.pay_type = payType;
    return received(fields, minutes, false);
  };

  test('payments are split by the gateway\'s method code: a card payment of a shop that registered nothing is a card\'s, the code wins over the expectation, a UnionPay form is a card\'s, the expectation only where the gateway names none', async () => {
    const mallId = 'T0000010';
    const order = (n: string): OrderRef => ({ mallId, shopOrderNo: `ORD-M-${n}` });
    await s.stores.ledger.putExpectation(order('WALLET'), { amount: 3000, currency: DEFAULT, method: 'vaccount', expiresAt: null }, at(-60).toISOString());
    await s.stores.ledger.putExpectation(order('SAID'), { amount: 4000, currency: DEFAULT, method: 'wallet', expiresAt: null }, at(-60).toISOString());
    await s.stores.store.record(notify.paid(order('CARD'), 'PG-M1', 1000, 10, '11'));
    await s.stores.store.record(notify.paid(order('TRANSFER'), 'PG-M2', 2000, 11, '21'));
    await s.stores.store.record(notify.paid(order('WALLET'), 'PG-M3', 3000, 12, '60'));
    await s.stores.store.record(notify.paid(order('SAID'), 'PG-M4', 4000, 13, null));
    await s.stores.store.record(notify.paid(order('NONE'), 'PG-M5', 5000, 14, null));
    await s.stores.store.record(notify.paid(order('ODD'), 'PG-M6', 6000, 15, '99'));
    await s.stores.store.record(unionPay(order('UNIONPAY'), 'PG-M7', 7000, '11', 16));
    await s.stores.store.record(unionPay(order('UNIONPAY-BARE'), 'PG-M8', 8000, null, 17));
    await s.stores.ledger.caughtUp();
    const expected = {
      card: { count: 3, amount: 1000 + 7000 + 8000 },
      transfer: { count: 1, amount: 2000 },
      wallet: { count: 2, amount: 3000 + 4000 },
      unknown: { count: 1, amount: 5000 },
      other: { count: 1, amount: 6000 },
    };
    expect((await day(mallId))?.payments.byMethod).toEqual(expected);
    expect((await s.stores.ledger.getOrder(order('CARD')))?.payments.map((p) => p.method)).toEqual(['11']);
    // A rebuild recomputes the same split from the stored facts.
    await s.forgetSummary();
    await rebuild();
    expect((await day(mallId))?.payments.byMethod).toEqual(expected);
  });

  test('the simulator\'s orders are summed apart from the day\'s money, and move into it whole when a real notification makes one real', async () => {
    const mallId = 'T0000011';
    const real: OrderRef = { mallId, shopOrderNo: 'ORD-REAL' };
    const made: OrderRef = { mallId, shopOrderNo: 'ORD-SIM' };
    const simulator = notifications(true);
    await s.stores.store.record(notify.paid(real, 'PG-R', 30000, 10));
    await s.stores.store.record(notify.cancelled(real, 'PG-R', 'CX-R', 4000, 20));
    await s.stores.store.record(simulator.paid(made, 'PG-S', 13200, 11));
    await s.stores.store.record(simulator.deposited({ mallId, shopOrderNo: 'ORD-SIM-VA' }, 'PG-SV', 45000, 12));
    await s.stores.store.record(simulator.refundFailed(made, 'PG-S', 45000, 30));
    await s.stores.ledger.caughtUp();
    const apart = {
      payments: { count: 1, amount: 13200, byMethod: { card: { count: 1, amount: 13200 } } }, cancels: { count: 0, amount: 0 },
      deposits: { count: 1, amount: 45000 }, depositCancels: { count: 0, amount: 0 }, refundsFailed: { count: 1, amount: 45000, unknownCount: 0 }, net: 58200,
    };
    const expected = {
      payments: { count: 1, amount: 30000, byMethod: { card: { count: 1, amount: 30000 } } }, cancels: { count: 1, amount: 4000 },
      deposits: { count: 0, amount: 0 }, refundsFailed: { count: 0, amount: 0, unknownCount: 0 }, net: 26000, simulated: apart,
    };
    expect(await day(mallId)).toMatchObject(expected);
    await s.forgetSummary();
    await rebuild();
    expect(await day(mallId)).toMatchObject(expected);

    // One notification without the mark: the order is real, and its money is the day's.
    await s.stores.store.record(notify.cancelled(made, 'PG-S', 'CX-S', 1200, 40));
    await s.stores.ledger.caughtUp();
    expect(await day(mallId)).toMatchObject({
      payments: { count: 2, amount: 43200 }, cancels: { count: 2, amount: 5200 }, refundsFailed: { count: 1, amount: 45000 }, net: 38000,
      simulated: { payments: { count: 0, amount: 0 }, deposits: { count: 1, amount: 45000 }, refundsFailed: { count: 0, amount: 0 }, net: 45000 },
    });
  });
}
