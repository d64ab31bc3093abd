import { eventually } from '../helpers/eventually';
import { ANSWER_LIMIT_BYTES } from '../../src/gateway/gateway-client';
import { startApiHarness, vanApproval, type ApiHarness } from './api-harness';
import { PATHS, startFakeGateway, type FakeGateway, type FloodMeter } from './fake-gateway';

/**
 * What the client took of a flood before hanging up: the limit plus what the sockets' buffers
 * and the HTTP client's read-ahead hold. Far below the flood itself.
 */
const BOUNDED = 16 * 1024 * 1024;

describe('a gateway answer is read up to a limit', () => {
  let gateway: FakeGateway;
  let api: ApiHarness;
  beforeEach(async () => {
    gateway = await startFakeGateway();
    api = await startApiHarness(gateway);
  });
  afterEach(async () => {
    await api.close();
    await gateway.close();
  });

  it.each<[string, number | undefined]>([
    ['a 64 MiB 0000 answer', 64 * 1024 * 1024],
    ['an endless 0000 answer', undefined],
  ])('a VAN approval given %s is cut at the limit and net-cancelled, and the API keeps answering', async (_case, bytes) => {
    const meter: FloodMeter = { written: 0, closed: false };
    gateway.script(PATHS.approve, { flood: true, bytes, meter });
    const body = vanApproval({ shopTransactionId: `flood-${bytes ?? 'endless'}` });
    const res = await api.post('/v1/van/approvals', body).expect(202);
    expect(res.body).toMatchObject({ state: 'net_cancelling', lastError: `HTTP 200 answer larger than ${ANSWER_LIMIT_BYTES} bytes, not read further` });

    await eventually(async () => (await api.commands.getCommand(body.shopTransactionId))?.state === 'net_cancelled');
    expect(gateway.calls(PATHS.netCancel).map((call) => call.body)).toEqual([body]);
    // The client hung up rather than reading on: what it held never grew with the flood.
    await eventually(() => meter.closed);
    expect(meter.written).toBeLessThan(BOUNDED);

    // The next call is answered as usual.
    const next = await api.post('/v1/van/approvals', vanApproval()).expect(200);
    expect(next.body).toMatchObject({ state: 'approved' });
  });

  it('an answer that declares a length past the limit is not read at all', async () => {
    gateway.script(PATHS.approve, { raw: `{"resCd":"0000","pad":"${'x'.repeat(ANSWER_LIMIT_BYTES)}"}`, contentType: 'application/json' });
    const body = vanApproval({ shopTransactionId: 'declared-large' });
    await api.post('/v1/van/approvals', body).expect(202);
    await eventually(async () => (await api.commands.getCommand(body.shopTransactionId))?.state === 'net_cancelled');
  });
});
