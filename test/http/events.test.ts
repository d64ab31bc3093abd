import iconv from 'iconv-lite';
import { EVENT_TYPES } from '../../src/notifications/event-types';
import {
  JSON_BUILDERS,
  basketApprovalNotification,
  encodeForm,
  unionPayFields,
  unionPayForm,
} from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { startTestReceiver, type TestReceiver } from '../helpers/test-receiver';

describe('every event type on the one notification path', () => {
  let receiver: TestReceiver;
  beforeEach(async () => (receiver = await startTestReceiver()));
  afterEach(async () => receiver.close());

  it.each(Object.entries(JSON_BUILDERS))('JSON event %s is acked 0000 with HTTP 200 and forwarded with its type', async (notiType, build) => {
    const notification = build({ mallId: 'T0009999' });
    const res = await receiver.postJson(notification).expect(200).expect('Content-Type', /application\/json/);
    expect(res.body).toEqual({ resCd: '0000', resMsg: 'SUCCESS' });
    const [event] = await receiver.forwarded(1);
    expect(event).toMatchObject({
      type: EVENT_TYPES[notiType as keyof typeof EVENT_TYPES],
      notiType,
      mallId: 'T0009999',
      pgCno: notification.pgCno,
      shopOrderNo: notification.shopOrderNo,
      resultCode: notification.resCd,
      resultMessage: notification.resMsg,
      data: notification,
    });
    expect(event?.id).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it('event 70 (EUC-KR form) is acked with exactly res_cd=0000 0x1F res_msg=SUCCESS and Korean arrives intact', async () => {
    // 똠 and 햏 are outside KS X 1001: only a CP949 decoder keeps them.
    const form = unionPayForm({ res_msg: '정상처리 똠햏 완료' });
    const res = await receiver.postForm(form.body).expect(200);
    expect(Buffer.from(res.text, 'latin1')).toEqual(Buffer.from('res_cd=0000\x1fres_msg=SUCCESS', 'ascii'));
    const [event] = await receiver.forwarded(1);
    expect(event).toMatchObject({
      type: 'unionpay.confirmed',
      notiType: '70',
      mallId: form.fields.memb_id,
      pgCno: form.fields.cno,
      shopOrderNo: form.fields.order_no,
      resultMessage: '정상처리 똠햏 완료',
      amount: 33000,
      data: form.fields,
    });
  });

  it('an explicit charset=euc-kr and raw (unescaped) EUC-KR bytes decode the same way', async () => {
    const fields = unionPayFields({ res_msg: '승인 완료' });
    const raw = Buffer.concat(
      Object.entries(fields).flatMap(([k, v], i) => [Buffer.from(i ? `&${k}=` : `${k}=`), iconv.encode(v, 'euc-kr')]),
    );
    await receiver.postForm(raw, 'application/x-www-form-urlencoded; charset=EUC-KR').expect(200);
    const [event] = await receiver.forwarded(1);
    expect(event?.resultMessage).toBe('승인 완료');
  });

  it('a form body that names charset=utf-8 is decoded as UTF-8', async () => {
    const fields = unionPayFields({ res_msg: '유니온페이 승인' });
    await receiver.postForm(encodeForm(fields, 'utf-8'), 'application/x-www-form-urlencoded; charset=utf-8').expect(200);
    const [event] = await receiver.forwarded(1);
    expect(event?.resultMessage).toBe('유니온페이 승인');
  });

  it('a basket approval forwards its triples in order', async () => {
    const notification = basketApprovalNotification(3);
    await receiver.postJson(notification).expect(200);
    const [event] = await receiver.forwarded(1);
    expect(event?.basket).toEqual([1, 2, 3].map((n) => ({
      productNo: notification[`productNo${n}`],
      productPgCno: notification[`productPgCno${n}`],
      sellerId: notification[`sellerId${n}`],
    })));
  });

  it('events reach the file in arrival order, each once, and the outbox rows are marked delivered', async () => {
    const sent = Object.values(JSON_BUILDERS).map((build) => build());
    for (const notification of sent) await receiver.postJson(notification).expect(200);
    const events = await receiver.forwarded(sent.length);
    expect(events.map((e) => e.pgCno)).toEqual(sent.map((n) => n.pgCno));
    await eventually(async () => (await receiver.store.listEvents({ status: 'delivered' })).length === sent.length, 5_000);
    expect(await receiver.store.listEvents({ status: 'pending' })).toHaveLength(0);
  });
});

