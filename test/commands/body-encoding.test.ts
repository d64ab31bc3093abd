import iconv from 'iconv-lite';
import { startApiHarness, tradeCreation, walletCancel, type ApiHarness } from './api-harness';
import { startFakeGateway, type FakeGateway } from './fake-gateway';

/** A JSON body whose `marker` string is replaced by raw bytes: what a caller in another charset sends. */
function bodyWithBytes(body: Record<string, unknown>, marker: string, bytes: Buffer): Buffer {
  const [before, after] = JSON.stringify(body).split(marker) as [string, string];
  return Buffer.concat([Buffer.from(before, 'utf8'), bytes, Buffer.from(after, 'utf8')]);
}

describe('the internal API reads bodies as UTF-8 only', () => {
  let gateway: FakeGateway;
  let api: ApiHarness;
  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApiHarness(gateway);
  });
  afterAll(async () => {
    await api.close();
    await gateway.close();
  });

  // Bytes as they are: supertest would serialize a Buffer as JSON under a JSON Content-Type.
  const post = (path: string, raw: Buffer, contentType = 'application/json') =>
    api.post(path, undefined).set('Content-Type', contentType).serialize(() => raw as unknown as string).send(raw);

  it('an EUC-KR memo is refused with 400 naming the field, and nothing is sent or stored', async () => {
    const raw = bodyWithBytes(walletCancel({ shopTransactionId: 'euc-kr-memo', memo: 'MEMO' }), 'MEMO', iconv.encode('환불 요청', 'euc-kr'));
    const res = await post('/v1/wallet-b/cancellations', raw).expect(400);
    const prefix = Buffer.byteLength(JSON.stringify(walletCancel({ shopTransactionId: 'euc-kr-memo', memo: 'MEMO' })).split('MEMO')[0]!);
    // 환 is C8 AF in EUC-KR, which happens to be valid UTF-8 (ȯ): the first invalid byte is the next one.
    expect(res.body.issues).toEqual([{ path: 'memo', message: `is not valid UTF-8 (byte ${prefix + 2}); send every text as UTF-8` }]);
    expect(res.body.error).toMatch(/^invalid body: memo is not valid UTF-8/);
    expect(gateway.calls()).toHaveLength(0);
    expect(await api.commands.getCommand('euc-kr-memo')).toBeNull();
  });

  it('names a nested field, a field name, and else the byte where the body stops being UTF-8', async () => {
    const nested = bodyWithBytes(tradeCreation({ amountInfo: { totalAmount: 1203, currency: 'CUR' } }), 'CUR', Buffer.from([0xc0, 0x41]));
    expect((await post('/v1/wallet-a/trades', nested).expect(400)).body.issues[0].path).toBe('amountInfo.currency');
    const name = bodyWithBytes({ ...tradeCreation(), KEY: 'x' }, 'KEY', Buffer.from([0xff]));
    expect((await post('/v1/wallet-a/trades', name).expect(400)).body.issues[0].path).toBe('');
    const outside = Buffer.concat([Buffer.from('{"mallId":"T0001234"'), Buffer.from([0xff]), Buffer.from('}')]);
    expect((await post('/v1/wallet-a/trades', outside).expect(400)).body.issues).toEqual([
      { path: '', message: 'is not valid UTF-8 at byte 20; send every text as UTF-8' },
    ]);
    expect(gateway.calls()).toHaveLength(0);
  });

  it('a U+FFFD the caller really sent is text like any other', async () => {
    const raw = Buffer.from(JSON.stringify(walletCancel({ shopTransactionId: 'real-fffd', memo: 'refund \ufffd ok' })), 'utf8');
    await post('/v1/wallet-b/cancellations', raw).expect(200);
    expect(gateway.calls().at(-1)!.body.memo).toBe('refund \ufffd ok');
  });

  it('a charset other than UTF-8 is refused with 415 saying which are accepted', async () => {
    const raw = Buffer.from(JSON.stringify(walletCancel({ shopTransactionId: 'euc-kr-charset' })), 'utf8');
    const res = await post('/v1/wallet-b/cancellations', raw, 'application/json; charset=euc-kr').expect(415);
    expect(res.body.error).toBe('unsupported charset "euc-kr": send the JSON body as UTF-8, with Content-Type application/json or application/json; charset=utf-8');
    expect(await api.commands.getCommand('euc-kr-charset')).toBeNull();
    await post('/v1/wallet-b/cancellations', raw, 'application/json; charset=UTF-8').expect(200);
  });

  it('malformed JSON is still 400 malformed JSON body', async () => {
    const res = await post('/v1/wallet-b/cancellations', Buffer.from('{"mallId":')).expect(400);
    expect(res.body).toEqual({ error: 'malformed JSON body' });
  });
});
