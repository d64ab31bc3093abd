import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { startTestReceiver, DEV_GATEWAY_IP, type TestReceiver } from '../helpers/test-receiver';

/** Bad input from an allowed address is the sender's fault: 4xx with 5001, kept, a warning. */
describe('hostile bodies are bad input, not outages', () => {
  let receiver: TestReceiver;
  beforeEach(async () => (receiver = await startTestReceiver({}, { relay: false })));
  afterEach(async () => receiver.close());

  const errorLogs = () => receiver.logs().filter((line) => line.level === 'error');

  it('JSON nested thousands deep is 400 with 5001, kept in rejections, and logged as a warning', async () => {
    const depth = 5_000;
    const body = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const res = await receiver.postJson(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ resCd: '5001', resMsg: expect.stringMatching(/nested deeper than \d+ levels/) });
    const [rejection] = await receiver.store.listRejections(1);
    expect(rejection?.rawBody?.toString()).toBe(body);
    expect(rejection?.httpStatus).toBe(400);
    expect(receiver.logs()).toContainEqual(expect.objectContaining({ level: 'warn', message: 'notification rejected', status: 400 }));
    expect(errorLogs()).toEqual([]);
  });

  it('deep arrays count too, brackets inside strings do not', async () => {
    await receiver.postJson(`{"x":${'['.repeat(3_000)}${']'.repeat(3_000)}}`).expect(400);
    const bracey = approvalNotification({ shopValue1: '{{{{[[[['.repeat(20), shopValue2: '\\"{{{{'.repeat(20) });
    await receiver.postJson(bracey).expect(200);
  });

  it('a gzip Content-Encoding is 415 with 5001, and the compressed bytes are kept as sent', async () => {
    const gzipped = gzipSync(JSON.stringify(approvalNotification()));
    const res = await receiver
      .postJson('')
      .set('Content-Encoding', 'gzip')
      .serialize((raw: unknown) => raw as string)
      .send(gzipped);
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ resCd: '5001', resMsg: expect.stringMatching(/Content-Encoding gzip/) });
    expect(await receiver.count('inbox')).toBe(0);
    const [rejection] = await receiver.store.listRejections(1);
    expect(rejection?.rawBody).toEqual(gzipped);
    expect(rejection?.httpStatus).toBe(415);
    expect(errorLogs()).toEqual([]);
  });

  it('an identity Content-Encoding is no encoding', async () => {
    await receiver.postJson(approvalNotification()).set('Content-Encoding', 'identity').expect(200);
  });

  it('OPTIONS on the notification path is answered in the gateway form, allowing POST', async () => {
    const res = await request(receiver.app).options(receiver.config.NOTIFY_PATH).set('X-Forwarded-For', DEV_GATEWAY_IP);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.body).toEqual({ resCd: '5001', resMsg: 'use POST' });
  });

  it('OPTIONS elsewhere is a 404 in the gateway form', async () => {
    const res = await request(receiver.app).options('/elsewhere');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ resCd: '5001', resMsg: 'not found' });
  });

  it('a POST to the notification path with a query string takes the same path as without', async () => {
    await request(receiver.app)
      .post(`${receiver.config.NOTIFY_PATH}?from=gateway`)
      .set('X-Forwarded-For', DEV_GATEWAY_IP)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify(approvalNotification()))
      .expect(200, { resCd: '0000', resMsg: 'SUCCESS' });
    expect(await receiver.count('inbox')).toBe(1);
  });
});
