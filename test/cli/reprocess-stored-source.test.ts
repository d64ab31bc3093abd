import { approvalNotification } from '../../src/simulator/notification-builders';
import { rejectionEntry } from '../helpers/stored-events';
import { runCliCaptured, seededReceiver } from './seeded-receiver';

describe('rejections reprocess judges the source as it was received', () => {
  let receiver: ReturnType<typeof seededReceiver>;
  const body = (mallId: string, shopOrderNo: string) =>
    rejectionEntry({
      sourceIp: '203.233.72.150', // the production gateway
      rawBody: Buffer.from(JSON.stringify(approvalNotification({ mallId, shopOrderNo }))),
      reason: `mallId ${mallId} is not one of MALL_IDS`,
    });

  beforeAll(() => {
    receiver = seededReceiver();
  });
  afterAll(() => receiver.cleanup());

  // Only what the operator fixed is set: GATEWAY_ENV is not repeated on the command line.
  const cli = (args: string[], env: Record<string, string>) => runCliCaptured(args, { DATABASE_URL: receiver.databaseUrl, ...env });

  it("accepts a production gateway's body without GATEWAY_ENV=production, as a production event", async () => {
    const id = await receiver.store.recordRejection(body('T0009999', 'ORD-PROD-1'));
    const result = await cli(['rejections', 'reprocess', String(id), '--json'], { MALL_IDS: 'T0001234,T0009999' });
    expect(result).toMatchObject({ code: 0, stderr: expect.stringMatching(/^noti-receiver: reading (sqlite|postgres):\S+ \(store [0-9a-f]{8}\)\n$/) });
    const { eventId } = result.json<{ eventId: string }>();
    const stored = await receiver.store.getEvent(eventId);
    expect(stored?.event.source).toEqual({ ip: '203.233.72.150', environment: 'production' });
  });

  it('still applies the current MALL_IDS', async () => {
    const id = await receiver.store.recordRejection(body('T0005555', 'ORD-PROD-2'));
    const result = await cli(['rejections', 'reprocess', String(id)], { MALL_IDS: 'T0001234' });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/MALL_IDS/);
  });

  it('refuses a stored source that no allowlist admits any more', async () => {
    const id = await receiver.store.recordRejection({ ...body('T0009999', 'ORD-EXTRA'), sourceIp: '10.1.2.3' });
    const refused = await cli(['rejections', 'reprocess', String(id)], { MALL_IDS: 'T0009999' });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/source 10\.1\.2\.3 is not a gateway address nor in EXTRA_ALLOWED_IPS/);
    const allowed = await cli(['rejections', 'reprocess', String(id), '--json'], { MALL_IDS: 'T0009999', EXTRA_ALLOWED_IPS: '10.0.0.0/8' });
    expect(allowed.code).toBe(0);
  });
});
