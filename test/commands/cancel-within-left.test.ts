import { approvalNotification, changeNotification, nextPgCno } from '../../src/simulator/notification-builders';
import { createTestSchema, describePostgres } from '../store/pg-test-database';
import { MALL, partialCancel, startCancelService, vanPayment, walletPayment, type CancelService } from './cancel-service';
import { PATHS, gate, startFakeGateway, type FakeGateway } from './fake-gateway';

type Backend = () => Promise<{ url?: string; drop(): Promise<void> }>;

const sqlite: Backend = async () => ({ drop: async () => undefined });
const postgres: Backend = async () => createTestSchema();

const CANCELS = '/v1/wallet-b/cancellations';
const VAN_CANCELS = '/v1/van/cancellations';
const revised = (gateway: FakeGateway) => gateway.calls(PATHS.revise).map((c) => (c.body.amountInfo as { totAmount?: number }).totAmount ?? 'all');
const answered = (cancelPgCno: string) => ({ answer: { resCd: '0000', resMsg: 'SUCCESS', cancelPgCno } });

/**
 * A cancel counts against what is left of its payment from the moment its command is recorded,
 * checked and recorded in one transaction: cancels sent at once, or while the gateway is still
 * answering an earlier one, never add up to more than the payment, and the ones that would are
 * refused (409, saying what is left) with nothing sent.
 */
function cancelsWithinLeft(name: string, backend: Backend, describeOn: (name: string, body: () => void) => void) {
  describeOn(`cancels of one payment never exceed it (${name})`, () => {
    let gateway: FakeGateway;
    let service: CancelService;
    let drop: () => Promise<void>;

    beforeEach(async () => {
      gateway = await startFakeGateway();
      const database = await backend();
      drop = database.drop;
      service = await startCancelService(gateway, database.url ? { databaseUrl: database.url } : {});
    });
    afterEach(async () => {
      await service?.close();
      await gateway?.close();
      await drop?.();
    });

    test('two cancels of 6,000 won sent at once on a 10,000 won payment while the gateway holds its answer: one is sent, the other is refused', async () => {
      const { pgCno } = await walletPayment(service, 10_000);
      const held = gate();
      gateway.script(PATHS.revise, { until: held.opened, then: answered(nextPgCno()) }, { until: held.opened, then: answered(nextPgCno()) });
      const first = service.api.post(CANCELS, partialCancel(pgCno, 6_000, 'at-once-1')).then((r) => r);
      const second = service.api.post(CANCELS, partialCancel(pgCno, 6_000, 'at-once-2')).then((r) => r);
      // One of them reaches the gateway and waits there; the other is answered without reaching it.
      const refused = await Promise.race([first, second]);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ reason: 'exceeds_remaining', pgCno, amount: 6_000, left: 4_000 });
      expect(refused.body.error).toContain('4000 (minor units) is left');
      held.open();
      const [a, b] = await Promise.all([first, second]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      expect(revised(gateway)).toEqual([6_000]);
      const refusedId = a.status === 409 ? 'at-once-1' : 'at-once-2';
      expect(await service.stores.commands.getCommand(refusedId)).toBeNull();
    });

    test('cancels sent the moment the approval is acked are measured against it: the ledger is waited for, not read behind', async () => {
      const shopOrderNo = `ORD-FAST-${nextPgCno()}`;
      const pgCno = nextPgCno();
      await service.notify(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '10000' })).expect(200);
      gateway.script(PATHS.revise, answered(nextPgCno()), answered(nextPgCno()));
      const answers = await Promise.all([1, 2].map((n) => service.api.post(CANCELS, partialCancel(pgCno, 6_000, `fast-${n}`)).then((r) => r)));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(revised(gateway)).toEqual([6_000]);
    });

    test('15,000 then 20,000 won against 30,000 won, the second while the first waits on the gateway: the second is refused', async () => {
      const { pgCno } = await walletPayment(service, 30_000);
      const held = gate();
      gateway.script(PATHS.revise, { until: held.opened, then: answered(nextPgCno()) });
      const first = service.api.post(CANCELS, partialCancel(pgCno, 15_000, 'serial-1')).then((r) => r);
      await gateway.waitForCalls(PATHS.revise, 1);
      const second = await service.api.post(CANCELS, partialCancel(pgCno, 20_000, 'serial-2'));
      expect(second.status).toBe(409);
      expect(second.body).toMatchObject({ left: 15_000, amount: 20_000 });
      // What fits still goes: 15,000 is exactly what is left.
      gateway.script(PATHS.revise, answered(nextPgCno()));
      expect((await service.api.post(CANCELS, partialCancel(pgCno, 15_000, 'serial-3'))).status).toBe(200);
      held.open();
      expect((await first).status).toBe(200);
      expect(revised(gateway)).toEqual([15_000, 15_000]);
      // Nothing is left: a full cancel (40) is refused too.
      const full = await service.api.post(CANCELS, { ...partialCancel(pgCno, 1, 'serial-4'), reviseTypeCode: '40', amountInfo: { currency: 'KRW' } });
      expect(full.status).toBe(409);
      expect(full.body).toMatchObject({ amount: null, left: 0 });
      expect(full.body.error).toContain('nothing is left');
    });

    test('a cancel the gateway confirmed (event 20) counts once; one it refused for good counts no more', async () => {
      const { shopOrderNo, pgCno } = await walletPayment(service, 10_000);
      const cancelPgCno = nextPgCno();
      gateway.script(PATHS.revise, answered(cancelPgCno), { answer: { resCd: 'E101', resMsg: 'refused' } });
      expect((await service.api.post(CANCELS, partialCancel(pgCno, 6_000, 'confirmed-1'))).body.state).toBe('succeeded');
      await service.notify(changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno, cancelAmount: '6000', amount: '6000', remainAmount: '4000' })).expect(200);
      await service.orderWhen(shopOrderNo, (o) => o.cancelled === 6_000, 'event 20 in the record');
      // Refused for good by the gateway: it takes nothing from what is left.
      expect((await service.api.post(CANCELS, partialCancel(pgCno, 4_000, 'refused-1'))).body.state).toBe('failed');
      expect((await service.api.post(CANCELS, partialCancel(pgCno, 4_001, 'over-1'))).body).toMatchObject({ left: 4_000 });
      gateway.script(PATHS.revise, answered(nextPgCno()));
      expect((await service.api.post(CANCELS, partialCancel(pgCno, 4_000, 'rest-1'))).status).toBe(200);
      expect(revised(gateway)).toEqual([6_000, 4_000, 4_000]);
    });

    test('a failed cancel retried by an operator counts again, so it is retried only while it still fits', async () => {
      const { pgCno } = await walletPayment(service, 10_000);
      gateway.script(PATHS.revise, { answer: { resCd: 'E101', resMsg: 'refused' } }, answered(nextPgCno()));
      expect((await service.api.post(CANCELS, partialCancel(pgCno, 6_000, 'retry-1'))).body.state).toBe('failed');
      expect((await service.api.post(CANCELS, partialCancel(pgCno, 6_000, 'retry-2'))).body.state).toBe('succeeded');
      const now = new Date();
      expect(await service.stores.commands.retryFailed('retry-1', now.getTime(), now.toISOString())).toEqual({ pgCno, amount: 6_000, left: 4_000 });
      expect(await service.stores.commands.getCommand('retry-1')).toMatchObject({ state: 'failed' });
      // Still failed, it takes nothing: the 4,000 won left can still be cancelled.
      gateway.script(PATHS.revise, answered(nextPgCno()));
      expect((await service.api.post(CANCELS, partialCancel(pgCno, 4_000, 'retry-3'))).status).toBe(200);
    });

    test('a VAN cancel naming its payment is held to it: a second is refused, and a pgCno that is not text cannot pass the check unread', async () => {
      const { shopOrderNo, pgCno } = await vanPayment(service, 50_000);
      const first = await service.api.post(VAN_CANCELS, { mallId: MALL, shopTransactionId: 'van-whole-1', pgCno });
      expect(first.body).toMatchObject({ command: 'van.cancel', state: 'succeeded' });
      const second = await service.api.post(VAN_CANCELS, { mallId: MALL, shopTransactionId: 'van-whole-2', pgCno });
      expect(second.status).toBe(409);
      expect(second.body).toMatchObject({ reason: 'exceeds_remaining', pgCno, amount: null, left: 0 });
      expect((await service.api.post(VAN_CANCELS, { mallId: MALL, shopTransactionId: 'van-whole-3', pgCno: Number(pgCno) })).status).toBe(400);
      expect(gateway.calls(PATHS.vanCancel)).toHaveLength(1);
      const order = await service.orderWhen(shopOrderNo, (o) => o.cancellationsRequested.some((c) => c.state === 'succeeded'), 'the VAN cancel in the record');
      expect(order.cancellationsRequested).toEqual([{ shopTransactionId: 'van-whole-1', pgCno, state: 'succeeded' }]);
    });

    test('the same key sent again is the same cancel: answered as stored, not refused, nothing sent again', async () => {
      const { pgCno } = await walletPayment(service, 10_000);
      gateway.script(PATHS.revise, answered(nextPgCno()));
      const body = partialCancel(pgCno, 10_000, 'replayed-1');
      expect((await service.api.post(CANCELS, body)).status).toBe(200);
      const again = await service.api.post(CANCELS, body);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ shopTransactionId: 'replayed-1', state: 'succeeded' });
      expect(revised(gateway)).toEqual([10_000]);
    });

    test('a cancel recorded shows in the order record as requested before its first attempt ends', async () => {
      const { shopOrderNo, pgCno } = await walletPayment(service, 10_000);
      const held = gate();
      gateway.script(PATHS.revise, { until: held.opened, then: answered(nextPgCno()) });
      const sent = service.api.post(CANCELS, partialCancel(pgCno, 3_000, 'early-1')).then((r) => r);
      await gateway.waitForCalls(PATHS.revise, 1);
      const order = await service.orderWhen(shopOrderNo, (o) => o.cancellationsRequested.length > 0, 'the requested cancel in the record');
      expect(order.cancellationsRequested).toEqual([{ shopTransactionId: 'early-1', pgCno, state: 'pending' }]);
      held.open();
      expect((await sent).status).toBe(200);
    });
  });
}

cancelsWithinLeft('SQLite', sqlite, describe);
cancelsWithinLeft('PostgreSQL', postgres, describePostgres);
