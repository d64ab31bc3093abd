import { createTransport } from 'nodemailer';
import type { AlertMessage } from './alert-message';

/** Where alerts go: a Slack-compatible incoming webhook, or e-mail. */
export interface AlertChannel {
  readonly name: 'webhook' | 'email';
  /**
   * Resolves once the receiver took the message; rejects with an error that never quotes the secret
   * URL, at the latest when `signal` aborts (the time-out, or the service stopping).
   */
  send(message: AlertMessage, signal: AbortSignal): Promise<void>;
}

/** A failed send, said without the webhook's URL or the SMTP password (both are secrets). */
class AlertSendFailed extends Error {
  override readonly name = 'AlertSendFailed';
}

/** nodemailer's own time-outs per step; the caller's signal bounds the whole send. */
const SMTP_STEP_MS = 30_000;

function abortReason(signal: AbortSignal): string {
  const reason = signal.reason as Error | undefined;
  return reason?.name === 'TimeoutError' ? 'no answer in time' : 'the service is stopping';
}

/**
 * Slack, Mattermost, Rocket.Chat, Google Chat and Teams' workflows all take `{"text": …}` at an
 * incoming-webhook URL and answer 2xx once it is posted.
 */
export function webhookChannel(url: URL): AlertChannel {
  return {
    name: 'webhook',
    async send(message, signal) {
      let answer: Response;
      try {
        answer = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify({ text: message.text }),
          signal,
          redirect: 'error',
        });
      } catch (error) {
        const cause = (error as Error & { cause?: { code?: string } }).cause?.code;
        throw new AlertSendFailed(`webhook not reached: ${signal.aborted ? abortReason(signal) : cause ?? (error as Error).name}`);
      }
      // The body is read (and dropped) so the connection is released; its text may echo the URL's token.
      await answer.arrayBuffer().catch(() => undefined);
      if (!answer.ok) throw new AlertSendFailed(`webhook answered HTTP ${answer.status}`);
    },
  };
}

/** E-mail through the SMTP server of ALERT_SMTP_URL (`smtp://user:pass@host:587`, `smtps://…:465`). */
export function emailChannel(smtpUrl: string, to: readonly string[], from: string): AlertChannel {
  return {
    name: 'email',
    async send(message, signal) {
      // One connection per message (at most one a digest window): a hung server holds one socket, closed when the signal aborts.
      const transport = createTransport({ url: smtpUrl, connectionTimeout: SMTP_STEP_MS, greetingTimeout: SMTP_STEP_MS, socketTimeout: SMTP_STEP_MS });
      let onAbort: () => void = () => undefined;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(new AlertSendFailed(`SMTP server not done: ${abortReason(signal)}`));
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        await Promise.race([transport.sendMail({ from, to: [...to], subject: message.subject, text: message.text }), aborted]);
      } catch (error) {
        if (error instanceof AlertSendFailed) throw error;
        const code = (error as { responseCode?: number }).responseCode ?? (error as { code?: string }).code;
        throw new AlertSendFailed(`SMTP send failed${code !== undefined ? ` (${code})` : ''}`);
      } finally {
        signal.removeEventListener('abort', onAbort);
        transport.close();
      }
    },
  };
}
