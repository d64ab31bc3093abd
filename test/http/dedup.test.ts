import { approvalNotification, changeNotification, escrowNotification, nextPgCno, unionPayForm } from '../../src/simulator/notification-builders';
import { startTestReceiver, type TestReceiver } from '../helpers/test-receiver';

describe('exactly once', () => {
  let receiver: TestReceiver;
  beforeEach(async () => (receiver = await startTestReceiver()));
  afterEach(async () => receiver.close());

  it('a redelivered approval is acked 0000 and forwarded once', async () => {
    const approval = approvalNotification();
    for (let i = 0; i < 3; i += 1) {
      const res = await receiver.postJson(approval).expect(200);
      expect(res.body.resCd).toBe('0000');
    }
    const marker = approvalNotification();
    await receiver.postJson(marker).expect(200);
    const events = await receiver.forwarded(2);
    expect(events.map((e) => e.pgCno)).toEqual([approval.pgCno, marker.pgCno]);
    expect(await receiver.count('inbox')).toBe(2);
    const [row] = await receiver.store.listEvents({ shopOrderNo: approval.shopOrderNo });
    expect(row?.redeliveries).toBe(2);
  });

  it('a redelivery with its fields in another order is a duplicate, not a conflict', async () => {
    const approval = approvalNotification();
    await receiver.postJson(approval).expect(200);
    const reordered = Object.fromEntries(Object.entries(approval).reverse());
    await receiver.postJson(JSON.stringify(reordered, null, 2)).expect(200);
    expect(await receiver.count('conflicts')).toBe(0);
  });

  it('two partial cancels of one payment are two events; each redelivered cancel is not', async () => {
    const pgCno = nextPgCno();
    const first = changeNotification({ pgCno, cancelAmount: '1000' });
    const second = changeNotification({ pgCno, cancelAmount: '2000' });
    for (const n of [first, second, first, second]) await receiver.postJson(n).expect(200);
    await receiver.postJson(approvalNotification()).expect(200);
    const events = await receiver.forwarded(3);
    const cancels = events.filter((e) => e.type === 'payment.changed');
    expect(cancels.map((e) => e.cancelPgCno)).toEqual([first.cancelPgCno, second.cancelPgCno]);
    expect(new Set(cancels.map((e) => e.id)).size).toBe(2);
  });

  it('escrow statuses of one payment are separate events', async () => {
    const pgCno = nextPgCno();
    for (const statusCode of ['ES01', 'ES02', 'ES03', 'ES02']) {
      await receiver.postJson(escrowNotification({ pgCno, statusCode, statusMessage: `상태 ${statusCode}` })).expect(200);
    }
    const events = await receiver.forwarded(3);
    expect(events.map((e) => e.status?.code)).toEqual(['ES01', 'ES02', 'ES03']);
  });

  it('the same notification sent 50 times at once yields exactly one event, and every copy is acked 0000', async () => {
    const approval = approvalNotification();
    const form = unionPayForm();
    const answers = await Promise.all([
      ...Array.from({ length: 50 }, () => receiver.postJson(approval)),
      ...Array.from({ length: 50 }, () => receiver.postForm(form.body)),
    ]);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.slice(0, 50).every((a) => a.body.resCd === '0000')).toBe(true);
    expect(answers.slice(50).every((a) => a.text === 'res_cd=0000\x1fres_msg=SUCCESS')).toBe(true);
    expect(await receiver.count('inbox')).toBe(2);
    expect(await receiver.count('outbox')).toBe(2);
    await receiver.postJson(approvalNotification()).expect(200);
    const events = await receiver.forwarded(3);
    expect(events).toHaveLength(3);
  });

  it('a redelivery whose body differs is kept as a conflict, logged, acked, and not forwarded again', async () => {
    const approval = approvalNotification({ amount: '12000' });
    await receiver.postJson(approval).expect(200);
    const changed = { ...approval, amount: '99000' };
    const res = await receiver.postJson(changed).expect(200);
    expect(res.body.resCd).toBe('0000');
    await receiver.postJson(approvalNotification()).expect(200);
    const events = await receiver.forwarded(2);
    expect(events.filter((e) => e.pgCno === approval.pgCno).map((e) => e.amount)).toEqual([12000]);
    const [conflict] = await receiver.store.listConflicts();
    expect(conflict?.event.data.amount).toBe('99000');
    expect(conflict?.rawBody.toString()).toContain('99000');
    expect(receiver.logs().some((l) => l.level === 'warn' && /conflict/.test(String(l.message)) && l.eventId === events[0]?.id)).toBe(true);
  });
});
