import { z } from 'zod';

/** A Slack-compatible incoming webhook: its URL is its secret, so it is never echoed, not even when wrong. */
const webhookUrl = z.string().transform((text, ctx): URL => {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    // said below
  }
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') {
    ctx.addIssue({ code: 'custom', message: 'must be an http(s):// incoming-webhook URL such as https://hooks.slack.com/services/…' });
    return z.NEVER;
  }
  return url;
});

const smtpUrl = z.string().refine((text) => {
  try {
    const url = new URL(text);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}, 'must be smtp://[user:password@]host[:port] or smtps://… (port 465)');

// A plain address check: the SMTP server is the judge; this catches a list written with ; or a name.
const address = /^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/;
const addressList = z
  .string()
  .transform((text) => text.split(',').map((s) => s.trim()).filter(Boolean))
  .refine((list) => list.length > 0 && list.every((a) => address.test(a)), 'must be e-mail addresses separated by commas, such as ops@shop.example,cs@shop.example');

/** Alerts to people: a chat webhook, e-mail, or both; neither set, no alert is sent. */
export const alertSettings = {
  ALERT_WEBHOOK_URL: webhookUrl.optional(),
  ALERT_SMTP_URL: smtpUrl.optional(),
  ALERT_EMAIL_TO: addressList.optional(),
  ALERT_EMAIL_FROM: z.string().trim().refine((a) => address.test(a), 'must be one e-mail address such as alerts@shop.example').optional(),
  ALERT_LANGUAGE: z.enum(['ko', 'en'], { error: 'must be ko or en' }).default('ko'),
};

/** E-mail needs both the server and the recipients: one without the other is a mistake, said at start. */
export function alertSettingsIssue(env: { ALERT_SMTP_URL?: string | undefined; ALERT_EMAIL_TO?: string[] | undefined }): { path: string; message: string } | null {
  if (env.ALERT_SMTP_URL && !env.ALERT_EMAIL_TO) return { path: 'ALERT_EMAIL_TO', message: 'is required with ALERT_SMTP_URL: the addresses alerts are e-mailed to' };
  if (env.ALERT_EMAIL_TO && !env.ALERT_SMTP_URL) return { path: 'ALERT_SMTP_URL', message: 'is required with ALERT_EMAIL_TO: the SMTP server alerts are e-mailed through' };
  return null;
}
