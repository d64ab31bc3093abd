import type { EventListing } from '../../src/cli/event-listing';
import type { RejectionRow } from '../../src/store/store';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { seededReceiver } from '../cli/seeded-receiver';

describe('the CLI masks by value with the same rules as the logs and the console', () => {
  let receiver: ReturnType<typeof seededReceiver>;
  beforeEach(() => (receiver = seededReceiver()));
  afterEach(() => receiver.cleanup());

  it('events show: unknown personal fields masked, card money and codes shown', async () => {
    const body = approvalNotification({ hpNo: '01055556666', residentNo: '900101-1234567', shopValue2: '{"buyerName":"이순신","tel":"010-2222-3333"}', cardAmount: '51000', mobileCd: 'SKT' });
    expect((await receiver.postJson(body)).status).toBe(200);
    const [row] = (await receiver.cli(['events', 'list', '--json'])).json<EventListing[]>();
    // (--json is the scripts' unmasked view, documented as such; the human view is masked.)
    const shown = await receiver.cli(['events', 'show', row!.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).not.toMatch(/01055556666|900101|1234567|이순신|2222-3333/);
    expect(shown.stdout).toContain('*******6666');
    expect(shown.stdout).toContain('"cardAmount": "51000"');
    expect(shown.stdout).toContain('"mobileCd": "SKT"');
  });

  it('rejections show: the first bytes of an unparsable body have names and e-mail masked', async () => {
    const body = '{"customerName":"Hong Gildong" "customerMail":"hong@example.com"}';
    expect((await receiver.postForm(Buffer.from(body), 'application/json')).status).toBe(400);
    const [row] = (await receiver.cli(['rejections', 'list', '--json'])).json<RejectionRow[]>();
    const shown = await receiver.cli(['rejections', 'show', String(row!.id)]);
    expect(shown.stdout).not.toMatch(/Gildong|hong@/);
    expect(shown.stdout).toContain('h***@example.com');
  });

  it('rejections show: a Korean name in an unparsable body is masked by its field, not shown as reversible mojibake', async () => {
    // Read as latin1, 홍길동 became bytes the name rule never saw, and anyone re-decodes them.
    const body = 'customerName: 홍길동, tel 010-1234-5678 hong@example.com';
    expect((await receiver.postForm(Buffer.from(body), 'text/plain')).status).toBe(415);
    const [row] = (await receiver.cli(['rejections', 'list', '--json'])).json<RejectionRow[]>();
    const shown = await receiver.cli(['rejections', 'show', String(row!.id)]);
    const latin1 = Buffer.from('홍길동').toString('latin1');
    expect(shown.stdout).not.toContain(latin1.slice(0, 3));
    expect(shown.stdout).not.toMatch(/길동|1234-5678|hong@/);
    expect(shown.stdout).toContain('customerName: 홍**, tel ***-****-5678 h***@example.com');
  });
});
