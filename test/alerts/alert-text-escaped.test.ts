import fc from 'fast-check';
import type { Alert } from '../../src/alerts/alert';
import { slackText } from '../../src/alerts/alert-channels';
import { alertMessage } from '../../src/alerts/alert-message';
import { refusalFact } from '../../src/ledger/fold/refusal-fact';
import { approvalNotification, nextPgCno } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { mailReceiver, openAlertService, webhookReceiver, type AlertService, type MailReceiver, type WebhookReceiver } from './alert-harness';

/**
 * What a notification controls reaches an alert as text: Slack's markup escaped (`<!channel>`,
 * `<@U…>`, `<http://e.vil|x>` never ping or disguise a link), no line it could forge (a line feed,
 * U+2028, a bidi override in an order number), and masked as the console's pages mask it (a card
 * number, a full-width phone number), in the link too. Asserted on the text as Slack and a mail
 * reader show it: through a local webhook that captures the body, and a real SMTP server.
 */

const MALL = 'T0001234';
const PUBLIC_URL = 'https://ops.shop.example';

/** The text as Slack shows it: its three escapes read back; any `<…>` left would be markup. */
const asSlackShows = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const HOSTILE = [
  { shopOrderNo: '<!channel> <@U024BE7LH> & co', shown: '<!channel> <@U024BE7LH> & co' },
  { shopOrderNo: '<http://e.vil|x>', shown: '<http://e.vil|x>' },
  { shopOrderNo: 'ORD-1\nresolved by kim', shown: 'ORD-1 resolved by kim' },
  { shopOrderNo: 'ORD-2\r\n\u2028\u0085resolved', shown: 'ORD-2 resolved' },
  { shopOrderNo: 'ORD-\u202eMIK-3\u0000\u001b[2J\u200b\u2066', shown: 'ORD-MIK-3[2J' },
  { shopOrderNo: '4111111111111111', shown: '411111******1111' },
  // Split by a line feed, or by a NUL: found once the field is on one line.
  { shopOrderNo: 'ORD 4111 1111\n1111 1111', shown: 'ORD 4111 11** **** 1111' },
  { shopOrderNo: 'ORD 4111\u000011111111\u00001111', shown: 'ORD 411111******1111' },
  { shopOrderNo: '고객\uff10\uff11\uff10\uff0d\uff11\uff12\uff13\uff14\uff0d\uff15\uff16\uff17\uff18', shown: '고객***－****－\uff15\uff16\uff17\uff18' },
];

describe('alerts show what a notification controls as text, masked, on one line', () => {
  let webhook: WebhookReceiver;
  let mail: MailReceiver;
  let service: AlertService;
  beforeAll(async () => {
    webhook = await webhookReceiver();
    mail = await mailReceiver();
    service = await openAlertService({
      env: { ALERT_WEBHOOK_URL: webhook.url, ALERT_SMTP_URL: mail.url, ALERT_EMAIL_TO: 'ops@shop.example', ADMIN_PUBLIC_URL: PUBLIC_URL },
      // One message per alert: each order's message is read on its own.
      alerts: { windowMs: 0 },
    });
  });
  afterAll(async () => {
    await service.close();
    await webhook.close();
    await mail.close();
  });

  test.each(HOSTILE)('order number $shopOrderNo', async ({ shopOrderNo, shown }) => {
    await service.stores.ledger.putExpectation({ mallId: MALL, shopOrderNo }, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null }, new Date().toISOString());
    await service.notify(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: nextPgCno(), amount: '3000' })).expect(200);
    const line = `주문: ${MALL} / ${shown}`;
    const raw = await eventually(() => webhook.texts.find((t) => asSlackShows(t).includes(line)), 10_000, `the webhook message for ${JSON.stringify(shopOrderNo)}`);
    const email = await eventually(() => mail.mails.find((m) => m.text.includes(line)), 10_000, 'the e-mail');

    // Slack: no markup at all (every <, > and & escaped), and it reads as the text written.
    expect(raw).not.toMatch(/[<>]|&(?!amp;|lt;|gt;)/);
    const slack = asSlackShows(raw);
    expect(slack).toBe(email.text);
    for (const text of [slack, email.text, email.subject]) {
      expect(text).not.toMatch(/^resolved/m);
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200b\u202a-\u202e\u2066-\u2069]/);
      expect(text).not.toContain('4111111111111111');
      expect(text).not.toContain('\uff11\uff12\uff13\uff14');
    }
    expect(email.subject).not.toMatch(/[\r\n]/);
    // The link names the order only when the message shows it whole, and then URL-encoded.
    const link = slack.split('\n').find((l) => l.startsWith(PUBLIC_URL))!;
    expect(link).toBe(shown === shopOrderNo ? `${PUBLIC_URL}/console/orders/${MALL}/${encodeURIComponent(shopOrderNo)}` : `${PUBLIC_URL}/console/discrepancies`);
    expect(link).not.toMatch(/[\s<>|]/);
  });

  test('a refused notification\'s mall id and order number, read from its body, are escaped the same way', async () => {
    const shopOrderNo = '<!channel>\nresolved by kim';
    // Refused (an amount that is not a number): the refusal names its order from the stored body.
    await service.notify({ ...approvalNotification({ mallId: '<!here>', shopOrderNo, pgCno: nextPgCno() }), amount: 'lots' }).expect(400);
    const line = '주문: <!here> / <!channel> resolved by kim';
    const raw = await eventually(() => webhook.texts.find((t) => asSlackShows(t).includes(line)), 10_000, 'the refused notification\'s message');
    expect(raw).toContain('refused_notification');
    expect(raw).toContain('&lt;!here&gt; / &lt;!channel&gt; resolved by kim');
    expect(raw).not.toMatch(/[<>]/);
    const email = await eventually(() => mail.mails.find((m) => m.text.includes(line)), 10_000, 'the e-mail');
    expect(email.text).not.toMatch(/^resolved/m);
  });
});

describe('the pieces', () => {
  test('any mall id and order number: the message has its own lines only, no control character, and Slack sees no markup', () => {
    const hostile = fc.array(fc.constantFrom('<', '>', '&', '|', '!', '@', 'channel', 'here', '\n', '\r', '\u2028', '\u2029', '\u0085', '\u202e', '\u2066', '\u200b', '\u0000', '\u001b', '\t', ' ', 'resolved by kim', '4111', '1111', '-', '０１０', '１２３４', '５６７８', 'ORD'), { maxLength: 12 })
      .map((pieces) => pieces.join(''));
    const options = { language: 'en' as const, publicUrl: new URL(PUBLIC_URL), defaultCurrency: 'KRW' };
    const lines = (alert: Alert) => alertMessage([alert], 1, options).text.split('\n').length;
    fc.assert(
      fc.property(hostile, hostile, fc.constantFrom('discrepancy', 'ledger_error', 'dead_event'), (mallId, shopOrderNo, kind) => {
        const at = new Date().toISOString();
        const make = (m: string, o: string): Alert => (kind === 'discrepancy'
          ? { kind, discrepancyId: 'dsc_1', discrepancyKind: 'amount_mismatch', mallId: m, shopOrderNo: o, currency: 'KRW', amounts: { expected: 30000 }, at }
          : kind === 'ledger_error' ? { kind, mallId: m, shopOrderNo: o, from: null, at }
            : { kind, eventId: 'evt_1', eventType: 'payment.approved', mallId: m, shopOrderNo: o, attempts: 3, at });
        const message = alertMessage([make(mallId, shopOrderNo)], 1, options);
        expect(message.text.split('\n')).toHaveLength(lines(make('T0001234', 'ORD-1')));
        // Its own line breaks only: no other control or format character.
        expect(message.text + message.subject).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
        expect(message.subject).not.toContain('\n');
        expect(slackText(message.text)).not.toMatch(/[<>]/);
        expect(message.text).not.toContain('4111111111111111');
        const link = message.text.split('\n').find((l) => l.startsWith(PUBLIC_URL))!;
        expect(link).not.toMatch(/[\s<>|*]/);
      }),
      { numRuns: 1000 },
    );
  });

  test('Slack\'s three escapes, & first', () => {
    expect(slackText('<!channel> & <@U1> <http://e.vil|x> &lt;')).toBe('&lt;!channel&gt; &amp; &lt;@U1&gt; &lt;http://e.vil|x&gt; &amp;lt;');
  });

  test('a refused notification names its order only within the gateway\'s bounds, in EUC-KR bytes: 40 for the order number, 8 for the mall', () => {
    const read = (mallId: string, shopOrderNo: string) => refusalFact({ mallId, shopOrderNo }, 1, new Date().toISOString())?.order ?? null;
    expect(read(MALL, 'O'.repeat(40))).toEqual({ mallId: MALL, shopOrderNo: 'O'.repeat(40) });
    expect(read(MALL, 'O'.repeat(41))).toBeNull();
    // Hangul is two bytes there: 20 syllables fit, 21 (42 bytes, far under 100 characters) do not.
    expect(read(MALL, '가'.repeat(20))).not.toBeNull();
    expect(read(MALL, '가'.repeat(21))).toBeNull();
    expect(read('T00012345', 'ORD-1')).toBeNull();
    expect(refusalFact({ memb_id: MALL, order_no: 'x'.repeat(41) }, 1, new Date().toISOString())).toBeNull();
  });
});
