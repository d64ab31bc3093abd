import type { RejectionRow } from '../../src/store/store';
import { seededReceiver } from './seeded-receiver';

describe('noti-receiver rejections show, for a body it cannot decode', () => {
  let receiver: ReturnType<typeof seededReceiver>;
  beforeEach(() => (receiver = seededReceiver()));
  afterEach(() => receiver.cleanup());

  async function showLatest(): Promise<string> {
    const [row] = (await receiver.cli(['rejections', 'list', '--json'])).json<RejectionRow[]>();
    const shown = await receiver.cli(['rejections', 'show', String(row!.id)]);
    expect(shown.code).toBe(0);
    return shown.stdout;
  }

  it('masks the first raw bytes: card and account numbers keep their last four, names their first letter', async () => {
    // Broken JSON (a missing comma) from an allowed source: kept raw, not decodable.
    const body = '{"cardNo":"5361481234561234" "customerName":"Hong Gildong","memo":"card 4111-1111-1111-1111","accountNo":"9477020123';
    expect((await receiver.postForm(Buffer.from(body), 'application/json')).status).toBe(400);
    const out = await showLatest();
    expect(out).toMatch(/body not decodable \(malformed JSON: unexpected character at line 1, column \d+ \(byte \d+\)\); first bytes, masked:/);
    expect(out).toContain('************1234');
    expect(out).toContain('****-****-****-1111');
    expect(out).toContain('"customerName\\":\\"H***********');
    expect(out).not.toMatch(/5361481234561234|4111-1111-1111|Gildong|947702/);
  });

  it('masks a card number in a body that is not text in its charset', async () => {
    const body = Buffer.concat([Buffer.from('{"x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('5361 4812 3456 1234"}')]);
    expect((await receiver.postForm(body, 'application/json')).status).toBe(400);
    const out = await showLatest();
    expect(out).toMatch(/not valid UTF-8/);
    expect(out).toContain('**** **** **** 1234');
    expect(out).not.toMatch(/5361 4812/);
  });
});
