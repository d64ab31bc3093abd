import { createHmac } from 'node:crypto';
import { eventually } from '../helpers/eventually';
import { PATHS, startFakeGateway, type FakeGateway } from './fake-gateway';
import { HMAC_KEY, startApiHarness, TEST_TIMEOUT_MS, walletCancel, type ApiHarness } from './api-harness';

/** 23:59:59 in Korea on 31 December 2026 is 14:59:59 UTC; the service's clock is set to it just before a POST. */
const JUST_BEFORE_KST_MIDNIGHT = Date.parse('2026-12-31T14:59:59.000Z');
const AFTER_KST_MIDNIGHT = Date.parse('2026-12-31T15:00:05.000Z');

const hmac = (key: string, text: string, encoding: 'hex' | 'base64' = 'hex') => createHmac('sha256', key).update(text).digest(encoding);

describe('wallet-b cancellation', () => {
  let gateway: FakeGateway;
  let api: ApiHarness;
  afterEach(async () => {
    await api?.close();
    await gateway.close();
  });

  it('signs pgCno|shopTransactionId with the key in lowercase hex, which the gateway accepts', async () => {
    gateway = await startFakeGateway({ hmacKey: HMAC_KEY });
    api = await startApiHarness(gateway);
    const res = await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'mac-1' })).expect(200);
    expect(res.body.state).toBe('succeeded');
    expect(gateway.calls(PATHS.revise)[0]!.body.msgAuthValue).toBe(hmac(HMAC_KEY, '20261122000012345678|mac-1'));
  });

  it('uses base64 when MSG_AUTH_ENCODING=base64, and a mall key from GATEWAY_SECRET_KEY_<MALLID>', async () => {
    gateway = await startFakeGateway({ hmacKey: 'mall-key-M2', encoding: 'base64' });
    api = await startApiHarness(gateway, { MSG_AUTH_ENCODING: 'base64', GATEWAY_SECRET_KEY_M2: 'mall-key-M2' });
    const res = await api.post('/v1/wallet-b/cancellations', walletCancel({ mallId: 'M2', shopTransactionId: 'mac-2' })).expect(200);
    expect(res.body.state).toBe('succeeded');
    expect(res.body.request.msgAuthValue).toBe(hmac('mall-key-M2', '20261122000012345678|mac-2', 'base64'));
  });

  it('times out, gets A213, then 0000: three attempts with the same key, date and MAC; 202 with Location, then succeeded', async () => {
    gateway = await startFakeGateway({ hmacKey: HMAC_KEY });
    gateway.script(PATHS.revise, { hang: true }, { answer: { resCd: 'A213', resMsg: 'try again' } });
    api = await startApiHarness(gateway, { GATEWAY_RETRY_BASE_MS: '800' });
    // The clock stands at 23:59:59 in Korea until the first attempt is on the wire, then moves past
    // midnight while it hangs: however slowly a loaded machine gets there, the first attempt began
    // before midnight and every resend after it (a running clock gave the POST one second).
    api.freezeClock(JUST_BEFORE_KST_MIDNIGHT);
    const midnight = gateway.waitForCalls(PATHS.revise, 1).then(() => api.setClockOffset(AFTER_KST_MIDNIGHT - Date.now()));
    midnight.catch(() => undefined); // awaited below; a failed POST must not leave it unhandled
    const res = await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'retry-1' })).expect(202);
    await midnight;
    expect(res.headers.location).toBe('/v1/commands/retry-1');
    expect(res.body).toMatchObject({ state: 'pending', attempts: 1, lastError: `time-out after ${TEST_TIMEOUT_MS} ms`, response: null });

    const done = await eventually(async () => {
      const { body } = await api.get('/v1/commands/retry-1').expect(200);
      return body.state === 'succeeded' && body;
    });
    // The first attempt began before midnight in Korea, the resends after it.
    expect((await api.commands.listAttempts('retry-1')).map((a) => a.startedAt >= '2026-12-31T15:00:00')).toEqual([false, true, true]);
    expect(done.attempts).toBe(3);
    const sent = gateway.calls(PATHS.revise).map((call) => call.body);
    expect(sent).toHaveLength(3);
    // The first attempt began at 23:59:59 in Korea; the resends ran after midnight and keep its date.
    expect(sent.map((b) => [b.shopTransactionId, b.cancelReqDate, b.msgAuthValue])).toEqual(
      Array(3).fill(['retry-1', '20261231', hmac(HMAC_KEY, '20261122000012345678|retry-1')]),
    );
    const attempts = await api.commands.listAttempts('retry-1');
    expect(attempts.map((a) => [a.error, a.response?.resCd ?? null])).toEqual([
      [`time-out after ${TEST_TIMEOUT_MS} ms`, null],
      ['gateway asked for a resend (resCd A213)', 'A213'],
      [null, '0000'],
    ]);
    expect(attempts.every((a) => a.finishedAt !== null)).toBe(true);
  });

  it('keeps cancelReqDate through a restart after midnight in Korea, on a server clock in UTC', async () => {
    gateway = await startFakeGateway({ hmacKey: HMAC_KEY });
    gateway.script(PATHS.revise, { reset: true });
    const first = await startApiHarness(gateway, { GATEWAY_RETRY_BASE_MS: '60000' }, { worker: false });
    // Stopped at 23:59:59 in Korea: the first attempt's date cannot slip past midnight on a slow machine.
    first.freezeClock(JUST_BEFORE_KST_MIDNIGHT);
    await first.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'restart-1' })).expect(202);
    await first.stop();

    // The same database an hour later (01:00 in Korea on 1 January): the worker resumes the resend.
    api = await startApiHarness(gateway, {}, { dir: first.dir, clockOffsetMs: JUST_BEFORE_KST_MIDNIGHT + 3_600_000 - Date.now() });
    const calls = await gateway.waitForCalls(PATHS.revise, 2);
    await eventually(async () => (await api.commands.getCommand('restart-1'))?.state === 'succeeded');
    expect(calls.map((c) => c.body.cancelReqDate)).toEqual(['20261231', '20261231']);
    expect(calls[1]!.body.msgAuthValue).toBe(calls[0]!.body.msgAuthValue);
    await first.close();
  });

  it('fails at once on another resCd, and the final state goes to the internal queue', async () => {
    gateway = await startFakeGateway();
    gateway.script(PATHS.revise, { answer: { resCd: 'R301', resMsg: 'already cancelled' } });
    api = await startApiHarness(gateway);
    const res = await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'refused-1' })).expect(200);
    expect(res.body).toMatchObject({ state: 'failed', attempts: 1, response: { resCd: 'R301' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(gateway.calls(PATHS.revise)).toHaveLength(1);

    const [event] = await eventually(() => api.forwarded().length > 0 && api.forwarded());
    expect(event).toMatchObject({ type: 'wallet.cancel.failed', data: { shopTransactionId: 'refused-1', state: 'failed', attempts: 1 } });
  });

  it('sends wallet.cancel.succeeded with the record as data', async () => {
    gateway = await startFakeGateway();
    api = await startApiHarness(gateway);
    await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'ok-event' })).expect(200);
    const [event] = await eventually(() => api.forwarded().length > 0 && api.forwarded());
    expect(event!.id).toMatch(/^evt_cmd_/);
    expect(event).toMatchObject({ type: 'wallet.cancel.succeeded', data: { command: 'wallet-b.cancel', shopTransactionId: 'ok-event', state: 'succeeded' } });
  });

  it('gives up after GATEWAY_MAX_ATTEMPTS time-outs: failed, with the last error', async () => {
    gateway = await startFakeGateway();
    gateway.script(PATHS.revise, { hang: true }, { reset: true }, { raw: '<html>502</html>', status: 502 });
    api = await startApiHarness(gateway, { GATEWAY_MAX_ATTEMPTS: '3' });
    await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'spent-1' })).expect(202);
    const done = await eventually(async () => {
      const command = await api.commands.getCommand('spent-1');
      return command?.state === 'failed' && command;
    });
    expect(done).toMatchObject({ attempts: 3, lastError: "HTTP 502 without the gateway's JSON answer" });
    const attempts = await api.commands.listAttempts('spent-1');
    expect(attempts[1]!.error).toMatch(/^network error: /);
    // What came back is kept for the operator even when it was not the gateway's JSON.
    expect(attempts[2]).toMatchObject({ httpStatus: 502, answerText: '<html>502</html>', response: null });
    expect(gateway.calls(PATHS.revise)).toHaveLength(3);
  });
});
