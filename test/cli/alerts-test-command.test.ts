import { hostname } from 'node:os';
import { mailReceiver, webhookReceiver, type MailReceiver, type WebhookReceiver } from '../alerts/alert-harness';
import { runCliCaptured } from './seeded-receiver';

describe('noti-receiver alerts test', () => {
  let hook: WebhookReceiver;
  let mail: MailReceiver;
  beforeEach(async () => {
    [hook, mail] = await Promise.all([webhookReceiver(), mailReceiver()]);
  });
  afterEach(async () => {
    await Promise.all([hook.close(), mail.close()]);
  });

  test('sends one message to each configured channel and prints what each answered', async () => {
    const run = await runCliCaptured(['alerts', 'test'], { ALERT_WEBHOOK_URL: hook.url, ALERT_SMTP_URL: mail.url, ALERT_EMAIL_TO: 'ops@shop.example,kim@shop.example' });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.trim().split('\n').sort()).toEqual(['email: sent (accepted)', 'webhook: sent (accepted)']);
    expect(hook.texts).toHaveLength(1);
    expect(hook.texts[0]).toContain('알림 시험');
    expect(mail.mails).toHaveLength(1);
    expect(mail.mails[0]).toMatchObject({ to: ['ops@shop.example', 'kim@shop.example'], subject: '[결제 통지 수신기] 알림 시험' });
    // Without ALERT_EMAIL_FROM the sender is the receiver's own address, never a recipient's.
    expect(mail.mails[0]!.from).toBe(`noti-receiver@${hostname()}`);
  });

  test('a channel that refuses is said, the other still gets its message, and the exit is 5', async () => {
    hook.mode = 'fail';
    const run = await runCliCaptured(['alerts', 'test', '--json'], {
      ALERT_WEBHOOK_URL: hook.url, ALERT_SMTP_URL: mail.url, ALERT_EMAIL_TO: 'ops@shop.example', ALERT_EMAIL_FROM: 'alerts@shop.example', ALERT_LANGUAGE: 'en',
    });
    expect(run.code).toBe(5);
    expect(run.json()).toEqual(expect.arrayContaining([
      { channel: 'webhook', ok: false, answer: 'webhook answered HTTP 500' },
      { channel: 'email', ok: true, answer: 'accepted' },
    ]));
    expect(mail.mails).toMatchObject([{ from: 'alerts@shop.example', subject: '[payment-noti-receiver] Alert test' }]);
    // The webhook's URL is its secret: never printed.
    expect(run.stdout + run.stderr).not.toContain('XXXXsecretXXXX');
  });

  test('with no channel set it says which settings to give, exit 2', async () => {
    const run = await runCliCaptured(['alerts', 'test'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no alert channel is set: set ALERT_WEBHOOK_URL, or ALERT_SMTP_URL and ALERT_EMAIL_TO');
  });
});
