import request from 'supertest';
import express from 'express';
import { apiErrorHandler } from '../../../src/api/api-errors';
import { ledgerRoutes } from '../../../src/api/ledger-routes';
import { mallScope } from '../../../src/api/mall-scope';
import { orderText } from '../../../src/cli/order-text';
import { LedgerCatchingUp } from '../../../src/ledger/projector/ledger-catching-up';
import { createLogger } from '../../../src/observability/logger';
import type { Stores } from '../../../src/ledger/projector/open-stores';
import { expectationFact } from '../../../src/ledger/fold/expectation-fact';
import { cancelled, MALL, minute, paid } from '../../store/ledger-entries';
import { approvalNotification } from '../../../src/simulator/notification-builders';
import { Writable } from 'node:stream';

export interface ProjectorDatabase {
  /** Stores on the database, as a replica opens them (`projector: false`: one that runs none). */
  open(options?: { projector?: boolean }): Promise<Stores>;
  /** Raw SQL on the database, as an operator's (or a fault's) hand would run it. */
  sql(text: string, ...params: Array<string | number>): Promise<Array<Record<string, unknown>>>;
  cleanup(): Promise<void>;
}

const order = (shopOrderNo: string) => ({ mallId: MALL, shopOrderNo });
const quiet = createLogger({ level: 'error', stream: new Writable({ write: (_c, _e, done) => done() }) });

/** The ledger's projector (issue 29), against each database by projector.test.ts. */
export function projectorContract(openDatabase: () => Promise<ProjectorDatabase>): void {
  let db: ProjectorDatabase;
  const opened: Stores[] = [];
  const open = async (options?: { projector?: boolean }) => {
    const stores = await db.open(options);
    opened.push(stores);
    return stores;
  };
  beforeEach(async () => {
    db = await openDatabase();
  });
  afterEach(async () => {
    for (const stores of opened.splice(0)) await stores.store.close();
    await db.cleanup();
  });

  test('an ack never fails because of the ledger: a corrupt stored fact makes its order ledger_error, the others go on, and a rebuild computes it again once repaired', async () => {
    const stores = await open();
    await stores.store.record(paid('ORD-POISON', 'PG-POISON', 30000, 0));
    await stores.ledger.caughtUp();
    const [fact] = await db.sql("SELECT id, fact_json FROM ledger_facts WHERE id LIKE 'evt_%'");
    await db.sql('UPDATE ledger_facts SET fact_json = ? WHERE id = ?', '{"kind": "notification", broken', String(fact!.id));
    // Without its fold checkpoint (as an order projected before migration 019): the next input replays the facts and meets it.
    await db.sql('DELETE FROM ledger_fold_positions');

    // Before the projector, the ack's own transaction read this fact and failed (503) for ever.
    await expect(stores.store.record(cancelled('ORD-POISON', 'PG-POISON', 'PG-POISON-C', 10000, 1, 20000))).resolves.toMatchObject({ outcome: 'accepted' });
    await expect(stores.store.record(paid('ORD-HEALTHY', 'PG-HEALTHY', 5000, 2))).resolves.toMatchObject({ outcome: 'accepted' });

    const poisoned = await stores.ledger.getOrder(order('ORD-POISON'));
    expect(poisoned).toMatchObject({ status: 'ledger_error', approved: 30000, ledgerError: { error: expect.stringMatching(/stored fact cannot be read/) } });
    expect(orderText(poisoned!, 'KRW')).toMatch(/^ledger error \(.+\): a stored fact cannot be read.*ledger rebuild/m);
    await expect(stores.ledger.getOrder(order('ORD-HEALTHY'))).resolves.toMatchObject({ status: 'paid', approved: 5000 });
    await expect(stores.ledger.ledgerErrorCount()).resolves.toBe(1);
    expect((await stores.ledger.listOrders({ status: 'ledger_error', limit: 10 })).orders.map((o) => o.shopOrderNo)).toEqual(['ORD-POISON']);

    await db.sql('UPDATE ledger_facts SET fact_json = ? WHERE id = ?', String(fact!.fact_json), String(fact!.id));
    await stores.ledger.rebuildPage(null, 100, new Date().toISOString());
    await expect(stores.ledger.getOrder(order('ORD-POISON'))).resolves.toMatchObject({ status: 'partially_cancelled', approved: 30000, cancelled: 10000 });
    expect((await stores.ledger.getOrder(order('ORD-POISON')))!.ledgerError).toBeUndefined();
    await expect(stores.ledger.ledgerErrorCount()).resolves.toBe(0);
  });

  test('a stored input the projector cannot read marks its order alone, and the projector goes on', async () => {
    const stores = await open();
    await db.sql("INSERT INTO ledger_inputs (mall_id, shop_order_no, fact_json, recorded_at) VALUES (?, 'ORD-BAD-INPUT', 'not json', '2026-11-21T03:00:00.000Z')", MALL);
    await stores.store.record(paid('ORD-AFTER', 'PG-AFTER', 1000, 0));
    await expect(stores.ledger.getOrder(order('ORD-BAD-INPUT'))).resolves.toMatchObject({ status: 'ledger_error', ledgerError: { error: expect.stringMatching(/cannot be read/) } });
    await expect(stores.ledger.getOrder(order('ORD-AFTER'))).resolves.toMatchObject({ status: 'paid' });
  });

  test('a stored notification that parses but reads as no event marks its order alone, kept through later notifications and a restart until repaired; the projector goes on', async () => {
    let stores = await open({ projector: false });
    await stores.store.record(paid('ORD-MALFORMED', 'PG-MALFORMED', 30000, 0));
    const [row] = await db.sql("SELECT seq, event_json FROM inbox WHERE shop_order_no = 'ORD-MALFORMED'");
    // Its row still names the order; its event does not read as one (a fault, a hand's edit): no data, no basket.
    await db.sql('UPDATE inbox SET event_json = ? WHERE seq = ?', JSON.stringify({ mallId: MALL, shopOrderNo: 'ORD-MALFORMED' }), Number(row!.seq));
    await stores.store.close();
    opened.splice(opened.indexOf(stores), 1);
    stores = await open();
    await stores.store.record(paid('ORD-NEXT', 'PG-NEXT', 1000, 1));
    await expect(stores.ledger.getOrder(order('ORD-NEXT'))).resolves.toMatchObject({ status: 'paid' });
    const marked = { status: 'ledger_error', ledgerError: { error: expect.stringMatching(/stored notification \(inbox row \d+\) cannot be read.*kept/) } };
    await expect(stores.ledger.getOrder(order('ORD-MALFORMED'))).resolves.toMatchObject(marked);

    // The order's next notification does not clear the mark, nor does a restart or a rebuild before the repair.
    await stores.store.record(cancelled('ORD-MALFORMED', 'PG-MALFORMED', 'PG-MALFORMED-C', 10000, 2, 20000));
    await expect(stores.ledger.getOrder(order('ORD-MALFORMED'))).resolves.toMatchObject(marked);
    await stores.store.close();
    opened.splice(opened.indexOf(stores), 1);
    stores = await open();
    await stores.ledger.rebuildPage(null, 100, new Date().toISOString());
    await expect(stores.ledger.getOrder(order('ORD-MALFORMED'))).resolves.toMatchObject(marked);
    await expect(stores.ledger.ledgerErrorCount()).resolves.toBe(1);

    // Repaired in the inbox; the rebuild applies it: the approval counts, the mark goes.
    await db.sql('UPDATE inbox SET event_json = ? WHERE seq = ?', String(row!.event_json), Number(row!.seq));
    await stores.ledger.rebuildPage(null, 100, new Date().toISOString());
    const repaired = await stores.ledger.getOrder(order('ORD-MALFORMED'));
    expect(repaired).toMatchObject({ status: 'partially_cancelled', approved: 30000, cancelled: 10000, remaining: 20000 });
    expect(repaired!.ledgerError).toBeUndefined();
    await expect(stores.ledger.ledgerErrorCount()).resolves.toBe(0);
    await expect(stores.ledger.rebuildPage(null, 100, new Date().toISOString())).resolves.toMatchObject({ changed: 0 });
  });

  test('an expectation whose text reads but whose amount or currency is no amount marks its order, never reads as paid', async () => {
    const stores = await open();
    const expectation = expectationFact(order('ORD-NO-AMOUNT'), { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null }, minute(0));
    // A hand's edit that kept the JSON whole: the amount as text, then without a currency.
    await db.sql('INSERT INTO ledger_inputs (mall_id, shop_order_no, fact_json, recorded_at) VALUES (?, ?, ?, ?)', MALL, 'ORD-NO-AMOUNT', JSON.stringify({ ...expectation, amount: '30,000' }), minute(0));
    await db.sql('INSERT INTO ledger_inputs (mall_id, shop_order_no, fact_json, recorded_at) VALUES (?, ?, ?, ?)', MALL, 'ORD-NO-CURRENCY', JSON.stringify({ ...expectation, currency: undefined }), minute(0));
    await stores.store.record(paid('ORD-NO-AMOUNT', 'PG-NO-AMOUNT', 3000, 1));
    await stores.store.record(paid('ORD-NO-CURRENCY', 'PG-NO-CURRENCY', 3000, 2));
    await expect(stores.ledger.getOrder(order('ORD-NO-AMOUNT'))).resolves.toMatchObject({ status: 'ledger_error', ledgerError: { error: expect.stringMatching(/its amount is not an amount/) } });
    await expect(stores.ledger.getOrder(order('ORD-NO-CURRENCY'))).resolves.toMatchObject({ status: 'ledger_error', ledgerError: { error: expect.stringMatching(/its currency is not a currency code/) } });
  });

  test('an input the ledger cannot apply is kept: its order stays ledger_error through later notifications and a restart, expectation kept, until it is repaired and a rebuild applies it', async () => {
    let stores = await open();
    const expectation = expectationFact(order('ORD-KEPT'), { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null }, minute(0));
    const whole = JSON.stringify(expectation);
    // The shop's expectation, stored cut short (a fault, a hand's edit): no fact can be read from it.
    await db.sql('INSERT INTO ledger_inputs (mall_id, shop_order_no, fact_json, recorded_at) VALUES (?, ?, ?, ?)', MALL, 'ORD-KEPT', whole.slice(0, 40), minute(0));
    await stores.store.record(paid('ORD-KEPT', 'PG-KEPT', 30000, 1));
    const marked = { status: 'ledger_error', ledgerError: { error: expect.stringMatching(/ledger input \d+ cannot be read.*kept.*ledger rebuild/) } };
    await expect(stores.ledger.getOrder(order('ORD-KEPT'))).resolves.toMatchObject(marked);
    // The order's next notification does not clear the mark: its figures follow, the input stays owed.
    await stores.store.record(cancelled('ORD-KEPT', 'PG-KEPT', 'PG-KEPT-C', 10000, 2, 20000));
    await expect(stores.ledger.getOrder(order('ORD-KEPT'))).resolves.toMatchObject(marked);
    await expect(stores.ledger.ledgerErrorCount()).resolves.toBe(1);
    expect(await db.sql('SELECT input_seq, shop_order_no FROM ledger_failed_inputs')).toEqual([expect.objectContaining({ shop_order_no: 'ORD-KEPT' })]);

    // Across a restart, and a rebuild before the repair: still owed.
    await stores.store.close();
    opened.splice(opened.indexOf(stores), 1);
    stores = await open();
    await stores.store.record(cancelled('ORD-KEPT', 'PG-KEPT', 'PG-KEPT-C2', 5000, 3, 15000));
    // Its figures are the last it computed; the inputs after the bad one are stored and wait for it.
    await expect(stores.ledger.getOrder(order('ORD-KEPT'))).resolves.toMatchObject(marked);
    await stores.ledger.rebuildPage(null, 100, new Date().toISOString());
    await expect(stores.ledger.getOrder(order('ORD-KEPT'))).resolves.toMatchObject(marked);

    // Repaired where it is kept; the rebuild applies it: the shop's expectation is back, the mark gone.
    await db.sql('UPDATE ledger_inputs SET fact_json = ? WHERE shop_order_no = ?', whole, 'ORD-KEPT');
    await stores.ledger.rebuildPage(null, 100, new Date().toISOString());
    const repaired = await stores.ledger.getOrder(order('ORD-KEPT'));
    expect(repaired).toMatchObject({ status: 'partially_cancelled', expected: { amount: 30000, currency: 'KRW' }, approved: 30000, cancelled: 15000, remaining: 15000 });
    expect(repaired!.ledgerError).toBeUndefined();
    await expect(stores.ledger.ledgerErrorCount()).resolves.toBe(0);
    expect(await db.sql('SELECT input_seq FROM ledger_failed_inputs')).toEqual([]);
    await expect(stores.ledger.rebuildPage(null, 100, new Date().toISOString())).resolves.toMatchObject({ changed: 0 });
  });

  test('a read of an order waits for the projector: across replicas it sees what was stored before it; with none running it answers 503 with Retry-After after 2 s', async () => {
    const withoutProjector = await open({ projector: false });
    await withoutProjector.store.record(paid('ORD-RYW', 'PG-RYW', 12000, 0));
    const started = Date.now();
    await expect(withoutProjector.ledger.getOrder(order('ORD-RYW'))).rejects.toBeInstanceOf(LedgerCatchingUp);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);

    const app = express();
    app.use(ledgerRoutes(withoutProjector.ledger, () => new Date(), mallScope([])));
    app.use(apiErrorHandler(quiet));
    const answer = await request(app).get(`/v1/orders/${MALL}/ORD-RYW`);
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.body).toMatchObject({ reason: 'ledger_catching_up', error: expect.stringMatching(/catching up/) });

    // Another replica's projector applies it; this replica's read waits for it and sees it.
    await open();
    await expect(withoutProjector.ledger.getOrder(order('ORD-RYW'))).resolves.toMatchObject({ status: 'paid', approved: 12000 });
    await withoutProjector.store.record(cancelled('ORD-RYW', 'PG-RYW', 'PG-RYW-C', 2000, 1, 10000));
    await expect(withoutProjector.ledger.getOrder(order('ORD-RYW'))).resolves.toMatchObject({ status: 'partially_cancelled', remaining: 10000 });
  });

  test("the ledger's events follow, in the queue, the notifications that caused them; a batch applied again queues nothing twice", async () => {
    const stores = await open();
    const entries = [
      paid('ORD-Q1', 'PG-Q1', 1000, 0), paid('ORD-Q2', 'PG-Q2', 2000, 0), cancelled('ORD-Q1', 'PG-Q1', 'PG-Q1C', 500, 1, 500),
      paid('ORD-Q3', 'PG-Q3A', 3000, 1), paid('ORD-Q3', 'PG-Q3B', 3000, 2), cancelled('ORD-Q2', 'PG-Q2', 'PG-Q2C', 2000, 2, 0),
    ];
    await Promise.all(entries.map((entry) => stores.store.record(entry)));
    await stores.ledger.caughtUp();
    const queued = async () => (await stores.store.nextPending(1000)).map((row) => ({ id: row.eventId, type: row.eventType, json: JSON.parse(row.eventJson) as Record<string, unknown> }));
    const before = await queued();
    const orderOf = (e: { json: Record<string, unknown> }) => (e.json.shopOrderNo ?? (e.json.order as { shopOrderNo?: string } | undefined)?.shopOrderNo) as string;
    const isLedger = (e: { type: string }) => e.type === 'order.status_changed' || e.type === 'ledger.discrepancy' || e.type === 'order.updated';
    for (const no of ['ORD-Q1', 'ORD-Q2', 'ORD-Q3']) {
      const positions = before.map((e, i) => ({ e, i })).filter(({ e }) => orderOf(e) === no);
      const firstLedger = positions.find(({ e }) => isLedger(e))!.i;
      const lastLedger = positions.filter(({ e }) => isLedger(e)).at(-1)!.i;
      const notifications = positions.filter(({ e }) => !isLedger(e)).map(({ i }) => i);
      expect(notifications).toHaveLength(entries.filter((entry) => entry.event.shopOrderNo === no).length);
      expect(firstLedger).toBeGreaterThan(notifications[0]!);
      expect(lastLedger).toBeGreaterThan(notifications.at(-1)!);
    }
    const records = await Promise.all(['ORD-Q1', 'ORD-Q2', 'ORD-Q3'].map((no) => stores.ledger.getOrder(order(no))));

    // As if every batch had to be applied again (a crash between its writes and its commit can't
    // leave half of one; this is the whole history replayed): same records, not one event more.
    await db.sql('UPDATE ledger_projector SET inbox_seq = 0, input_seq = 0 WHERE id = 1');
    stores.ledger.projector!.wake();
    await stores.ledger.caughtUp();
    expect(await queued()).toEqual(before);
    await expect(Promise.all(['ORD-Q1', 'ORD-Q2', 'ORD-Q3'].map((no) => stores.ledger.getOrder(order(no))))).resolves.toEqual(records);
  });

  test('a conflicting redelivery (same key, another amount) opens conflicting_notification with both versions; the first stored still counts', async () => {
    const stores = await open();
    await stores.store.record(paid('ORD-CONFLICT', 'PG-CONFLICT', 10000, 0));
    await expect(stores.store.record(paid('ORD-CONFLICT', 'PG-CONFLICT', 1000, 0))).resolves.toMatchObject({ outcome: 'conflict' });
    const record = await stores.ledger.getOrder(order('ORD-CONFLICT'));
    expect(record).toMatchObject({
      status: 'discrepancy', approved: 10000,
      discrepancies: [{ kind: 'conflicting_notification', details: { pgCno: 'PG-CONFLICT', storedAmount: 10000, redeliveredAmount: 1000 }, resolvedAt: null }],
    });
  });

  test('a refused notification that names an order opens refused_notification; a valid redelivery of it resolves it (by the ledger)', async () => {
    const stores = await open();
    const body = approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-REFUSED', pgCno: 'PG-REFUSED', amount: '12,000' });
    await stores.store.recordRejection({
      // Before the redelivery below (the fixtures' minute 0): the ledger replays inputs as they were stored.
      receivedAt: '2026-11-21T02:59:00.000Z', sourceIp: '203.233.72.150', contentType: 'application/json; charset=utf-8',
      rawBody: Buffer.from(JSON.stringify(body)), httpStatus: 400, reason: 'amount: not an integer',
    });
    const refused = await stores.ledger.getOrder(order('ORD-REFUSED'));
    expect(refused).toMatchObject({ status: 'discrepancy', discrepancies: [{ kind: 'refused_notification', details: { notiType: '10', pgCno: 'PG-REFUSED' }, resolvedAt: null }] });
    await stores.store.record(paid('ORD-REFUSED', 'PG-REFUSED', 12000, 0));
    await expect(stores.ledger.getOrder(order('ORD-REFUSED'))).resolves.toMatchObject({
      status: 'paid', discrepancies: [{ kind: 'refused_notification', resolvedBy: 'ledger' }],
    });
  });

  test('a PUT expectation and a resolution answer the record that includes them', async () => {
    const stores = await open();
    const put = await stores.ledger.putExpectation(order('ORD-PUT'), { amount: 9000, currency: 'KRW', method: 'card', expiresAt: null }, '2026-11-21T02:59:00.000Z');
    expect(put).toMatchObject({ outcome: 'stored', record: { status: 'awaiting_payment', expected: { amount: 9000 } } });
    await stores.store.record(paid('ORD-PUT', 'PG-PUT', 900, 0));
    // Judged on every stored input, applied or not: the payment makes the amount final.
    await expect(stores.ledger.putExpectation(order('ORD-PUT'), { amount: 900, currency: 'KRW', method: 'card', expiresAt: null }, '2026-11-21T03:01:00.000Z'))
      .resolves.toMatchObject({ outcome: 'conflict', conflict: { reason: 'already_paid' } });
    const [open_] = (await stores.ledger.getOrder(order('ORD-PUT')))!.discrepancies;
    const resolved = await stores.ledger.resolveDiscrepancy(open_!.id, { by: 'kim', note: 'asked the customer', at: '2026-11-21T03:05:00.000Z', actor: 'kim' });
    expect(resolved).toMatchObject({ outcome: 'resolved', record: { discrepancies: [{ id: open_!.id, resolvedBy: 'kim' }] } });
  });
}
