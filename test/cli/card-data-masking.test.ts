import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { receiverWith, runCliCaptured } from './seeded-receiver';

/** Test card numbers (they pass the Luhn check) and card secrets, as a shop or a customer may send them. */
const CARDS = ['6011-0009-9013-9424', '4111 1111 1111 1111', '4111111111111111', '5555555555554444', '4012888888881881', '378282246310005', '6011000990139424'];
const SECRETS = ['=28121010000012300000', '"cvc":"123"', '"cvc": "123"', 'cvc=123', 'CVV2=987', '^HONG/GILDONG^'];

function expectNoCardData(text: string): void {
  for (const card of CARDS) expect(text).not.toContain(card);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe('noti-receiver: card numbers and card secrets never printed, in any field, human or --json', () => {
  let dir: string;
  let stores: Stores;
  const cli = (...args: string[]) => runCliCaptured(args, { DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`, EXTRA_ALLOWED_IPS: '127.0.0.1' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-cli-cards-'));
    stores = await openStores(`sqlite:${join(dir, 'receiver.db')}`);
    const receiver = receiverWith(stores.store);
    const approval = approvalNotification({
      shopOrderNo: 'ORD-4012888888881881',
      shopValue1: '4111 1111 1111 1111',
      shopValue2: JSON.stringify({ card: { number: '378282246310005', cvc: '123' } }),
      someUnknownField: 'pan 5555555555554444',
    } as Record<string, string>);
    await receiver.postJson(approval).expect(200);
    // A redelivery with another card in shopValue1: a conflict, compared field by field.
    await receiver.postJson({ ...approval, shopValue1: '6011-0009-9013-9424' }).expect(200);
    // Not JSON and not a form: kept as a rejection, its bytes shown as text.
    await receiver.postForm(Buffer.from('card 6011000990139424 cvc=123 CVV2=987'), 'text/plain').expect(415);
    const at = new Date().toISOString();
    const request = { mallId: 'T0001234', shopTransactionId: 'van-cards', amount: '15000', track2: '4111111111111111=28121010000012300000', cvc: '123', track1: 'B4111111111111111^HONG/GILDONG^2812' };
    await stores.commands.createCommand({ kind: 'van.approve', shopTransactionId: 'van-cards', mallId: 'T0001234', bodyHash: 'h', request, state: 'pending', at, owner: 'test', leaseUntil: Date.now() + 60_000 });
  });
  afterAll(async () => {
    await stores.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('events list and events show mask a card number in the order number, a shopValue, nested JSON and an unknown field', async () => {
    const list = await cli('events', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('ORD-401288******1881');
    expectNoCardData(list.stdout);
    const row = (await cli('events', 'list', '--json')).json<Array<{ id: string; type: string; shopOrderNo: string }>>().find((r) => r.type === 'payment.approved');
    expect(row!.shopOrderNo).toBe('ORD-401288******1881');

    const shown = await cli('events', 'show', row!.id);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('4111 11** **** 1111');
    expectNoCardData(shown.stdout);
    const json = await cli('events', 'show', row!.id, '--json');
    expectNoCardData(json.stdout);
    // The raw body travels as base64 in JSON output: masked in the bytes themselves.
    const raw = Buffer.from(json.json<{ rawBody: string }>().rawBody, 'base64').toString('utf8');
    expect(raw).toContain('"shopValue1":"4111 11** **** 1111"');
    expectNoCardData(raw);
  });

  test('rejections show masks a body that is not JSON, and its raw bytes in --json', async () => {
    const [rejection] = (await cli('rejections', 'list', '--json')).json<Array<{ id: number }>>();
    const shown = await cli('rejections', 'show', String(rejection!.id));
    expect(shown.code).toBe(0);
    expectNoCardData(shown.stdout);
    const json = await cli('rejections', 'show', String(rejection!.id), '--json');
    const raw = Buffer.from(json.json<{ rawBody: string }>().rawBody, 'base64').toString('utf8');
    // A bare value runs to the end of its pair, so the text after a secret is masked with it.
    expect(raw).toBe('card 601100******9424 cvc=*** ********');
  });

  test('conflicts list and conflicts show compare the two card numbers masked', async () => {
    const list = await cli('conflicts', 'list');
    expectNoCardData(list.stdout);
    const [conflict] = (await cli('conflicts', 'list', '--json')).json<Array<{ id: number }>>();
    const shown = await cli('conflicts', 'show', String(conflict!.id));
    expect(shown.stdout).toMatch(/shopValue1\s+4111 11\*\* \*\*\*\* 1111\s+6011-00\*\*-\*\*\*\*-9424/);
    expectNoCardData(shown.stdout);
    expectNoCardData((await cli('conflicts', 'show', String(conflict!.id), '--json')).stdout);
  });

  test('commands show masks track and CVC fields of a VAN pass-through, human and --json', async () => {
    const shown = await cli('commands', 'show', 'van-cards');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('"cvc":"***"');
    expectNoCardData(shown.stdout);
    const json = await cli('commands', 'show', 'van-cards', '--json');
    expectNoCardData(json.stdout);
    expect(json.json<{ record: { request: Record<string, string> } }>().record.request).toMatchObject({ cvc: '***', amount: '15000', mallId: 'T0001234' });
    expectNoCardData((await cli('commands', 'list')).stdout);
  });
});
