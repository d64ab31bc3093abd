import { alertChannelsOf } from '../../src/alerts/alerts-from-config';
import { ConfigError, loadConfig } from '../../src/config/env';

const startError = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('the settings were accepted');
};

describe('alert settings', () => {
  test('none set: no channel, Korean by default', () => {
    const config = loadConfig({});
    expect(alertChannelsOf(config)).toEqual([]);
    expect(config.ALERT_LANGUAGE).toBe('ko');
  });

  test('a webhook and e-mail are both channels', () => {
    const config = loadConfig({ ALERT_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/abc', ALERT_SMTP_URL: 'smtp://mail.shop.example:587', ALERT_EMAIL_TO: 'ops@shop.example, cs@shop.example', ALERT_LANGUAGE: 'en' });
    expect(alertChannelsOf(config).map((c) => c.name)).toEqual(['webhook', 'email']);
    expect(config.ALERT_EMAIL_TO).toEqual(['ops@shop.example', 'cs@shop.example']);
  });

  test('a bad webhook URL stops the start with one line naming the variable, without echoing the URL (its secret)', () => {
    const message = startError({ ALERT_WEBHOOK_URL: 'hooks.slack.com/services/T0/B0/s3cr3t' });
    expect(message).toBe('invalid ALERT_WEBHOOK_URL: must be an http(s):// incoming-webhook URL such as https://hooks.slack.com/services/…; fix it in the environment or .env (see .env.example)');
    expect(startError({ ALERT_WEBHOOK_URL: 'ftp://hooks.example/s3cr3t' })).not.toContain('s3cr3t');
  });

  test('a bad SMTP URL is named without its password; the server without recipients, or recipients without a server, is refused', () => {
    const message = startError({ ALERT_SMTP_URL: 'http://user:p4ss@mail.shop.example', ALERT_EMAIL_TO: 'ops@shop.example' });
    expect(message).toMatch(/^invalid ALERT_SMTP_URL: must be smtp:\/\/\[user:password@\]host\[:port\] or smtps:\/\//);
    expect(message).not.toContain('p4ss');
    expect(startError({ ALERT_SMTP_URL: 'smtp://mail.shop.example' })).toMatch(/^invalid ALERT_EMAIL_TO: is required with ALERT_SMTP_URL/);
    expect(startError({ ALERT_EMAIL_TO: 'ops@shop.example' })).toMatch(/^invalid ALERT_SMTP_URL: is required with ALERT_EMAIL_TO/);
    expect(startError({ ALERT_SMTP_URL: 'smtp://mail.shop.example', ALERT_EMAIL_TO: 'ops@shop.example; cs@shop.example' })).toMatch(/^invalid ALERT_EMAIL_TO \(got "ops@shop.example; cs@shop.example"\): must be e-mail addresses separated by commas/);
  });

  test('a language other than ko or en is refused', () => {
    expect(startError({ ALERT_LANGUAGE: 'jp' })).toMatch(/^invalid ALERT_LANGUAGE \(got "jp"\): must be ko or en/);
  });
});
