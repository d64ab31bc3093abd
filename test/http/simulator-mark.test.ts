import { SIMULATOR_MARK_HEADER, simulatorKey, simulatorMark } from '../../src/notifications/simulator-mark';
import { approvalNotification, nextPgCno, unionPayForm } from '../../src/simulator/notification-builders';
import { API_TOKEN, startLedgerApp, type LedgerApp } from '../ledger/ledger-app-harness';

const MALL = 'T0001234';
let serial = 0;
const orderNo = () => `ORD-MARK-${process.pid}-${++serial}`;

/**
 * Only the simulator's signature over the very bytes received marks an order simulated: no field,
 * no other header, no signature of other bytes or under another key, however it is sent.
 */
describe("the simulator's mark on a notification", () => {
  let app: LedgerApp;
  beforeAll(async () => {
    app = await startLedgerApp();
  });
  afterAll(async () => app.close());

  const key = simulatorKey(API_TOKEN);
  const order = async (shopOrderNo: string) => (await app.api.get(`/v1/orders/${MALL}/${shopOrderNo}`).expect(200)).body as Record<string, unknown>;
  const body = (shopOrderNo: string) => approvalNotification({ mallId: MALL, shopOrderNo, pgCno: nextPgCno() });

  test('over the exact bytes under the receiver\'s key marks the order simulated', async () => {
    const no = orderNo();
    await app.notifySimulated(body(no)).expect(200);
    expect(await order(no)).toMatchObject({ simulated: true });
  });

  test.each<[string, (raw: string) => Record<string, string | string[]>, (raw: string) => string]>([
    ['another body\'s signature', (raw) => ({ [SIMULATOR_MARK_HEADER]: simulatorMark(key, Buffer.from(`${raw} `)) }), (raw) => raw],
    ['the signature of the same fields written otherwise', (raw) => ({ [SIMULATOR_MARK_HEADER]: simulatorMark(key, Buffer.from(JSON.stringify(JSON.parse(raw), null, 1))) }), (raw) => raw],
    ['a signature under another key', (raw) => ({ [SIMULATOR_MARK_HEADER]: simulatorMark(simulatorKey('another-receivers-token-8f2d61c3'), Buffer.from(raw)) }), (raw) => raw],
    ['a signature keyed by the token itself rather than its derived key', (raw) => ({ [SIMULATOR_MARK_HEADER]: simulatorMark(Buffer.from(API_TOKEN), Buffer.from(raw)) }), (raw) => raw],
    ['the right signature sent twice', (raw) => ({ [SIMULATOR_MARK_HEADER]: [simulatorMark(key, Buffer.from(raw)), simulatorMark(key, Buffer.from(raw))] }), (raw) => raw],
    ['a truncated signature', (raw) => ({ [SIMULATOR_MARK_HEADER]: simulatorMark(key, Buffer.from(raw)).slice(0, 32) }), (raw) => raw],
    ['the body field the simulator once sent', () => ({}), (raw) => JSON.stringify({ ...JSON.parse(raw), simulator: 'noti-receiver' })],
    ['the body field with a right signature of the body without it', (raw) => ({ [SIMULATOR_MARK_HEADER]: simulatorMark(key, Buffer.from(raw)) }), (raw) => JSON.stringify({ ...JSON.parse(raw), simulator: 'noti-receiver' })],
  ])('%s marks nothing: the order is real', async (_case, headers, bytes) => {
    const no = orderNo();
    const raw = JSON.stringify(body(no));
    await app.notifyRaw(bytes(raw), headers(raw)).expect(200);
    expect(await order(no)).not.toHaveProperty('simulated');
  });

  test('a UnionPay form (EUC-KR bytes) signed over its bytes is marked; the same form unsigned is real', async () => {
    const [signed, unsigned] = [orderNo(), orderNo()];
    const form = unionPayForm({ cno: nextPgCno(), order_no: signed });
    await app.notifyForm(form.body, form.contentType).set(SIMULATOR_MARK_HEADER, simulatorMark(key, form.body)).expect(200);
    const plain = unionPayForm({ cno: nextPgCno(), order_no: unsigned });
    await app.notifyForm(plain.body, plain.contentType).expect(200);
    expect(await order(signed)).toMatchObject({ simulated: true });
    expect(await order(unsigned)).not.toHaveProperty('simulated');
  });
});
