import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import request from 'supertest';
import { createApiApp } from '../../src/api/api-app';
import { deploymentAsyncApiDocument } from '../../src/contract/deployment-asyncapi';
import { eucKrByteLength } from '../../src/euc-kr';
import { PATHS, startFakeGateway, type FakeGateway } from './fake-gateway';
import { API_TOKEN, startApiHarness, tradeCreation, vanApproval, walletCancel, type ApiHarness } from './api-harness';

const COMMITTED = join(__dirname, '..', '..', 'docs', 'openapi.json');

type Document = { paths: Record<string, Record<string, Operation>>; servers?: unknown[] };
type Operation = {
  operationId?: string;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};

/** JSON pointer segment escaping (RFC 6901), to name a schema inside the document. */
const pointer = (...segments: string[]) => segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/**
 * A JSON Schema 2020-12 validator (OpenAPI 3.1's dialect) over the document, with its one
 * extension: `x-maxBytes`, the gateway's length in EUC-KR bytes, which plain JSON Schema cannot say.
 */
function validatorsOf(document: Document) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addKeyword({ keyword: 'x-maxBytes', type: 'string', schemaType: 'number', validate: (max: number, data: string) => eucKrByteLength(data) <= max });
  ajv.addSchema(document as object, 'openapi');
  const at = (...segments: string[]): ValidateFunction => {
    const validate = ajv.getSchema(`openapi#/${pointer(...segments)}`);
    if (!validate) throw new Error(`the document has no schema at ${segments.join(' ')}`);
    return validate;
  };
  return {
    body: (path: string) => at('paths', path, 'post', 'requestBody', 'content', 'application/json', 'schema'),
    answer: (method: string, path: string, status: number) => at('paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema'),
  };
}

describe('the OpenAPI document (GET /v1/openapi.json)', () => {
  let gateway: FakeGateway;
  let api: ApiHarness;
  let served: Document;
  let schemas: ReturnType<typeof validatorsOf>;
  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApiHarness(gateway);
    served = (await api.get('/v1/openapi.json').expect(200)).body as Document;
    schemas = validatorsOf(served);
  });
  afterAll(async () => {
    await api.close();
    await gateway.close();
  });

  it('is the committed docs/openapi.json (regenerate it with npm run openapi), which npm test lints', () => {
    const committed = JSON.parse(readFileSync(COMMITTED, 'utf8')) as Document;
    expect(served).toEqual(committed);
  });

  it("serves the queue's AsyncAPI document beside it, this deployment's (docs/asyncapi.json narrowed to its file sink), behind the same token", async () => {
    const events = await api.get('/v1/asyncapi.json').expect(200).expect('Content-Type', /application\/json/);
    const committed = JSON.parse(readFileSync(join(__dirname, '..', '..', 'docs', 'asyncapi.json'), 'utf8')) as Record<string, unknown>;
    expect(events.body).toEqual(deploymentAsyncApiDocument({ url: api.config.QUEUE_URL, name: api.config.QUEUE_NAME }));
    expect(Object.keys(events.body.channels)).toEqual(['file']);
    expect(events.body.servers.file.pathname).toBe(api.config.QUEUE_URL.replace(/^file:/, ''));
    expect(events.body.components).toEqual(committed.components);
    await request(createApiApp({ commands: api.deps, apiToken: API_TOKEN })).get('/v1/asyncapi.json').expect(401);
  });

  it('names a server and gives every operation an operationId and the token refusal', () => {
    expect(served.servers?.length).toBeGreaterThan(0);
    const operations = Object.entries(served.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    expect(operations.length).toBeGreaterThanOrEqual(8);
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { op } of operations) expect(Object.keys(op.responses)).toContain('401');
    for (const { op } of operations.filter(({ method }) => method === 'post')) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '413', '415']));
  });

  // [route, what, valid, body]: what the document says of each body must be what the API does.
  const bodies: Array<[string, string, boolean, Record<string, unknown>]> = [
    ['/v1/wallet-a/trades', 'a trade', true, tradeCreation()],
    ['/v1/wallet-a/trades', 'an amount as a string of digits', true, tradeCreation({ amountInfo: { totalAmount: '1203', currency: 'USD' } })],
    ['/v1/wallet-a/trades', 'a shopTransactionId with dots and colons', true, tradeCreation({ shopTransactionId: `st.2026:${Date.now()}` })],
    ['/v1/wallet-a/trades', 'a shopOrderNo of 40 bytes (20 Korean characters)', true, tradeCreation({ shopOrderNo: '주문'.repeat(10) })],
    ['/v1/wallet-a/trades', 'a field the service does not know (passed through)', true, tradeCreation({ userInfo: { userLang: 'EN' } })],
    ['/v1/wallet-a/trades', 'a fractional amount (12.03)', false, tradeCreation({ amountInfo: { totalAmount: 12.03, currency: 'USD' } })],
    ['/v1/wallet-a/trades', 'a zero amount', false, tradeCreation({ amountInfo: { totalAmount: 0, currency: 'USD' } })],
    ['/v1/wallet-a/trades', 'a negative amount', false, tradeCreation({ amountInfo: { totalAmount: -5, currency: 'USD' } })],
    ['/v1/wallet-a/trades', 'a fractional amount as a string', false, tradeCreation({ amountInfo: { totalAmount: '12.03', currency: 'USD' } })],
    ['/v1/wallet-a/trades', 'a shopTransactionId with /', false, tradeCreation({ shopTransactionId: 'st/1' })],
    ['/v1/wallet-a/trades', 'a shopTransactionId with %', false, tradeCreation({ shopTransactionId: 'st%2F1' })],
    ['/v1/wallet-a/trades', 'a shopOrderNo of 42 bytes (21 Korean characters)', false, tradeCreation({ shopOrderNo: `${'주문'.repeat(10)}가` })],
    ['/v1/wallet-a/trades', 'a goodsName that is not English', false, tradeCreation({ goodsName: '커피 원두' })],
    ['/v1/wallet-b/cancellations', 'a full cancel (40) without totAmount', true, walletCancel()],
    ['/v1/wallet-b/cancellations', 'a partial cancel (32) with totAmount', true, walletCancel({ reviseTypeCode: '32', amountInfo: { currency: 'USD', totAmount: 300 } })],
    ['/v1/wallet-b/cancellations', 'a partial cancel (32) without totAmount', false, walletCancel({ reviseTypeCode: '32' })],
    ['/v1/wallet-b/cancellations', 'a partial cancel of 10.5', false, walletCancel({ reviseTypeCode: '32', amountInfo: { currency: 'USD', totAmount: '10.5' } })],
    ['/v1/wallet-b/cancellations', 'an unknown reviseTypeCode', false, walletCancel({ reviseTypeCode: '99' })],
    ['/v1/wallet-b/cancellations', 'a caller-made msgAuthValue', false, walletCancel({ msgAuthValue: 'abc' })],
    ['/v1/van/approvals', 'a VAN approval with fields the gateway defines', true, vanApproval()],
    ['/v1/van/approvals', 'a VAN approval without shopTransactionId', false, vanApproval({ shopTransactionId: undefined })],
    ['/v1/van/cancellations', 'a VAN cancellation', true, vanApproval({ approvalNo: '12345678' })],
    ['/v1/van/cancellations', 'a VAN cancellation with a / in its key', false, vanApproval({ shopTransactionId: 'van/1' })],
  ];

  it.each(bodies)('%s: %s: valid %p, by the document and by the API alike', async (path, _what, valid, body) => {
    const sent = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
    const validate = schemas.body(path);
    expect({ documentSaysValid: validate(sent), errors: validate.errors?.map((e) => `${e.instancePath} ${e.message}`) }).toMatchObject({ documentSaysValid: valid });
    const res = await api.post(path, sent);
    expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status: valid ? expect.any(Number) : 400 });
    if (valid) expect(res.status).not.toBe(400);
  });

  it("answers as documented: the record with the gateway's typed answer, and each refusal", async () => {
    const conforms = (method: string, path: string, res: request.Response) => {
      const validate = schemas.answer(method, path, res.status);
      expect({ status: res.status, ok: validate(res.body), errors: validate.errors }).toMatchObject({ status: res.status, ok: true });
    };
    const trade = await api.post('/v1/wallet-a/trades', tradeCreation({ shopTransactionId: 'doc-trade-1' }));
    conforms('post', '/v1/wallet-a/trades', trade);
    expect(typeof trade.body.response.paymentPageUrl).toBe('string');
    const tradeAnswer = (served as unknown as { components: { schemas: Record<string, { properties: Record<string, { type?: string }> }> } }).components.schemas.TradeAnswer!;
    expect(tradeAnswer.properties.paymentPageUrl!.type).toBe('string');

    gateway.script(PATHS.revise, { answer: { resCd: 'A210', resMsg: 'busy' } });
    conforms('post', '/v1/wallet-b/cancellations', await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'doc-cancel-1' })));
    conforms('post', '/v1/van/approvals', await api.post('/v1/van/approvals', vanApproval()));
    conforms('post', '/v1/wallet-a/trades', await api.post('/v1/wallet-a/trades', tradeCreation({ shopTransactionId: 'doc-trade-1', goodsName: 'Another' })));
    conforms('post', '/v1/wallet-a/trades', await api.post('/v1/wallet-a/trades', tradeCreation({ amountInfo: { totalAmount: 0 } })));
    conforms('post', '/v1/wallet-a/trades', await api.post('/v1/wallet-a/trades', '{"mallId":').set('Content-Type', 'application/json'));
    conforms('post', '/v1/wallet-a/trades', await api.post('/v1/wallet-a/trades', 'mallId=T0001234').set('Content-Type', 'text/plain'));
    conforms('post', '/v1/wallet-a/trades', await api.post('/v1/wallet-a/trades', tradeCreation({ goodsName: 'x'.repeat(70_000) })));
    const app = createApiApp({ commands: api.deps, apiToken: API_TOKEN });
    conforms('post', '/v1/wallet-a/trades', await request(app).post('/v1/wallet-a/trades').send(tradeCreation()));

    conforms('get', '/v1/commands', await api.get('/v1/commands'));
    conforms('get', '/v1/commands/{shopTransactionId}', await api.get('/v1/commands/doc-trade-1'));
    conforms('get', '/v1/commands/{shopTransactionId}', await api.get('/v1/commands/nope'));
    conforms('get', '/v1/wallet-a/trades/{shopTransactionId}/qr.svg', await api.get('/v1/wallet-a/trades/doc-cancel-1/qr.svg'));
  });
});
