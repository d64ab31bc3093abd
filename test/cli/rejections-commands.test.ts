import type { EventListing } from '../../src/cli/event-listing';
import type { RejectionRow } from '../../src/store/store';
import { approvalNotification, unionPayForm } from '../../src/simulator/notification-builders';
import { receiverOn, seededReceiver } from './seeded-receiver';

describe('noti-receiver rejections', () => {
  let receiver: ReturnType<typeof seededReceiver>;
  const jsonOrder = 'ORD-NEW-MALL-JSON';
  const formOrder = 'ORD-NEW-MALL-FORM';
  const newMall = approvalNotification({ mallId: 'T0009999', shopOrderNo: jsonOrder });
  const newMallUnionPay = unionPayForm({ memb_id: 'T0009999', order_no: formOrder, res_msg: '정상처리되었습니다' });
  const fixedEnv = { MALL_IDS: 'T0001234,T0009999' };

  beforeAll(async () => {
    // The merchant onboarded T0009999 at the gateway before adding it to MALL_IDS.
    receiver = seededReceiver({ MALL_IDS: 'T0001234' });
    expect((await receiver.postJson(newMall)).status).toBe(400);
    expect((await receiver.postForm(newMallUnionPay.body, newMallUnionPay.contentType)).status).toBe(400);
    expect((await receiver.postJson(approvalNotification())).status).toBe(200);
  });
  afterAll(() => receiver.cleanup());

  const rejections = async () => (await receiver.cli(['rejections', 'list', '--json'])).json<RejectionRow[]>();
  const rejectionFor = async (orderNo: string) => {
    const rows = await rejections();
    // The raw body is base64 in JSON output; the order number is ASCII in both layouts.
    return rows.find((row) => Buffer.from(row.rawBody as unknown as string, 'base64').toString('latin1').includes(orderNo))!;
  };

  test('list shows each refused body with its reason', async () => {
    const rows = await rejections();
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.reason.includes('MALL_IDS') && row.reprocessedEventId === null)).toBe(true);
    const table = await receiver.cli(['rejections', 'list']);
    expect(table.stdout).toContain('is not one of MALL_IDS');
  });

  test('show decodes the EUC-KR form body so the Korean text reads as sent', async () => {
    const row = await rejectionFor(formOrder);
    const shown = await receiver.cli(['rejections', 'show', String(row.id), '--json']);
    expect(shown.code).toBe(0);
    expect(shown.json<{ decoded: { fields: Record<string, string> } }>().decoded.fields.res_msg).toBe('정상처리되었습니다');
  });

  test('reprocess under the old configuration still fails, prints the reason and exits 1', async () => {
    const row = await rejectionFor(jsonOrder);
    const result = await receiver.cli(['rejections', 'reprocess', String(row.id)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('mallId: "T0009999" is not one of MALL_IDS');
    expect((await receiver.cli(['events', 'list', '--json', '--order', jsonOrder])).json()).toEqual([]);
  });

  test('after MALL_IDS is fixed, reprocess turns the rejection into a normal pending event', async () => {
    const row = await rejectionFor(jsonOrder);
    const result = await receiver.cli(['rejections', 'reprocess', String(row.id), '--json'], fixedEnv);
    expect(result.code).toBe(0);
    const { eventId, outcome } = result.json<{ eventId: string; outcome: string }>();
    expect(outcome).toBe('accepted');

    const events = (await receiver.cli(['events', 'list', '--json', '--order', jsonOrder])).json<EventListing[]>();
    expect(events).toEqual([expect.objectContaining({ id: eventId, status: 'pending', mallId: 'T0009999', pgCno: newMall.pgCno })]);
    expect((await rejectionFor(jsonOrder)).reprocessedEventId).toBe(eventId);

    const again = await receiver.cli(['rejections', 'reprocess', String(row.id), '--json'], fixedEnv);
    expect(again.json()).toMatchObject({ eventId, outcome: 'already-reprocessed' });
    expect((await receiver.cli(['events', 'list', '--json', '--order', jsonOrder])).json()).toHaveLength(1);
  });

  test('a reprocessed rejection the gateway meanwhile resent is recorded as a duplicate, not a second event', async () => {
    const row = await rejectionFor(formOrder);
    // The gateway retried after MALL_IDS was fixed and the receiver restarted on the same database.
    const live = receiverOn(receiver.databaseFile, fixedEnv);
    expect((await live.postForm(newMallUnionPay.body, newMallUnionPay.contentType)).status).toBe(200);
    const result = await receiver.cli(['rejections', 'reprocess', String(row.id), '--json'], fixedEnv);
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ outcome: 'duplicate' });
    const events = (await receiver.cli(['events', 'list', '--json', '--order', formOrder])).json<EventListing[]>();
    expect(events).toHaveLength(1);
    await live.close();
  });

  test('unknown or malformed rejection ids exit 1 and 2', async () => {
    expect((await receiver.cli(['rejections', 'show', '999'])).code).toBe(1);
    expect((await receiver.cli(['rejections', 'reprocess', '999'], fixedEnv)).code).toBe(1);
    expect((await receiver.cli(['rejections', 'show', 'abc'])).code).toBe(2);
  });
});
