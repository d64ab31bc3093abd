import { NOTI_TYPES } from '../../src/notifications/event-types';
import { createMetrics } from '../../src/observability/metrics';
import { registerLedgerGauge } from '../../src/ledger/projector/ledger-gauges';
import { FAULT_NAMES, FAULTS } from '../../src/simulator/faulty-stories';
import { approvalNotification, nextPgCno } from '../../src/simulator/notification-builders';
import { runSimulation, type SimulationOptions } from '../../src/simulator/run-simulation';
import { signerOf } from '../../src/simulator/simulator-signer';
import type { ListedDiscrepancy } from '../../src/ledger/projector/ledger-store';
import { startLedgerReceiver, type LedgerReceiver } from '../sandbox/ledger-receiver';

/** Far enough past every order's last change that whatever waits for LEDGER_GRACE_SECONDS (2100 s) has opened. */
const AFTER_GRACE_MS = 3 * 3600_000;

describe("the simulator's payment stories against the real receiver and its ledger", () => {
  let receiver: LedgerReceiver;
  beforeEach(async () => {
    // Its gateway is never called here: the simulator only notifies, and registers expectations.
    receiver = await startLedgerReceiver('http://127.0.0.1:9');
  });
  afterEach(async () => {
    await receiver?.close();
  });

  const simulate = (overrides: Partial<SimulationOptions> = {}) =>
    // Signed as simulate-cli signs with the receiver's API_TOKEN in the environment.
    runSimulation({ url: receiver.notifyUrl, events: NOTI_TYPES, count: 3, duplicates: 1, concurrency: 4, gatewayRetries: false, retryIntervalMs: 0, sign: signerOf(receiver.apiToken), ...overrides });

  /** Sweeps as the service does, once the grace period has passed, then lists what is open. */
  async function openAfterGrace(): Promise<ListedDiscrepancy[]> {
    const later = new Date(Date.now() + AFTER_GRACE_MS).toISOString();
    // The sweep reads the records as projected: the projector applies the acked notifications on its
    // own thread, after the acks, so it must have applied them all before the sweep looks.
    await receiver.stores.ledger.caughtUp();
    while ((await receiver.stores.ledger.sweep(later)) > 0);
    return (await receiver.stores.ledger.listDiscrepancies({ open: true, limit: 500 })).discrepancies;
  }

  test("the README's first session (--count 3 --duplicates 1) leaves no open discrepancy, even after the grace period", async () => {
    const summary = await simulate();
    expect(summary).toMatchObject({ ok: true, orders: 24, faulty: [] });
    expect(await openAfterGrace()).toEqual([]);

    const orders = (await receiver.stores.ledger.listOrders({ limit: 500 })).orders;
    expect(orders).toHaveLength(24);
    expect(orders.every((order) => order.simulated === true)).toBe(true);
    expect(new Set(orders.map((order) => order.status))).toEqual(new Set(['paid', 'partially_cancelled', 'cancelled', 'awaiting_payment']));
  });

  test.each(FAULT_NAMES)('--faults %s opens exactly its discrepancy, on its own order, and no other', async (fault) => {
    const summary = await simulate({ count: 1, duplicates: 0, faults: [fault], api: { url: receiver.apiUrl, token: receiver.apiToken } });
    expect(summary.problems).toEqual([]);
    expect(summary.faulty).toEqual([expect.objectContaining({ fault, opens: FAULTS[fault].opens })]);

    const open = await openAfterGrace();
    expect(open.map((d) => [d.shopOrderNo, d.kind])).toEqual([[summary.faulty[0]!.shopOrderNo, FAULTS[fault].opens]]);
  });

  test('the metric counts the simulated orders apart, so the alert on real ones stays quiet', async () => {
    const metrics = createMetrics();
    registerLedgerGauge(metrics, receiver.stores.ledger);
    await simulate({ count: 1, duplicates: 0, faults: ['double-payment', 'refund-fails'] });
    // A real double payment: the gateway's notifications, without the simulator's mark.
    for (const pgCno of [nextPgCno(), nextPgCno()]) {
      const answer = await fetch(receiver.notifyUrl, { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(approvalNotification({ pgCno, shopOrderNo: 'ORD-REAL-1' })) });
      expect(answer.status).toBe(200);
    }
    const text = await metrics.registry.getSingleMetricAsString('noti_receiver_ledger_discrepancies_open');
    expect(text).toContain('noti_receiver_ledger_discrepancies_open{kind="duplicate_payment",simulated="true"} 1');
    expect(text).toContain('noti_receiver_ledger_discrepancies_open{kind="refund_transfer_failed",simulated="true"} 1');
    expect(text).toContain('noti_receiver_ledger_discrepancies_open{kind="duplicate_payment",simulated="false"} 1');
    expect(text).toContain('noti_receiver_ledger_discrepancies_open{kind="refund_transfer_failed",simulated="false"} 0');
    expect((await receiver.stores.ledger.getOrder({ mallId: 'T0001234', shopOrderNo: 'ORD-REAL-1' }))).not.toHaveProperty('simulated');
  });

  test("without the receiver's secret to sign with, or with another one, the simulator's orders are real to the receiver", async () => {
    for (const sign of [null, signerOf('another-receivers-token-8f2d61c3')]) {
      const summary = await simulate({ events: ['10'], count: 2, duplicates: 0, sign });
      expect(summary).toMatchObject({ ok: true, orders: 2 });
    }
    await receiver.stores.ledger.caughtUp();
    const orders = (await receiver.stores.ledger.listOrders({ limit: 500 })).orders;
    expect(orders).toHaveLength(4);
    for (const order of orders) expect(order).not.toHaveProperty('simulated');
  });

  test('the faults that need an expectation refuse to run without the internal API, rather than open nothing', async () => {
    await expect(simulate({ faults: ['amount-mismatch'] })).rejects.toThrow(/amount-mismatch needs the internal API/);
  });
});
