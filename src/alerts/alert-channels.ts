import { createTransport } from 'nodemailer';
import type { AlertMessage } from './alert-message';

/** Where alerts go: a Slack-compatible incoming webhook, or e-mail. */
export interface AlertChannel {
  readonly name: 'webhook' | 'email';
  /**
   * Resolves once the receiver took the message; rejects with an error that never quotes the secret
   * URL, at the latest when `signal` aborts (`timeoutMs` passed, or the service is stopping).
   */
  send(message: AlertMessage, signal: AbortSignal, timeoutMs: number): Promise<void>;
}

/** A failed send, said without the webhook's URL or the SMTP password (both are secrets). */
class AlertSendFailed extends Error {
  override readonly name = 'AlertSendFailed';
}

/** Resolves once `promise` settles, or after `ms` at the latest. */
async function settled(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise.catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function abortReason(signal: AbortSignal): string {
  const reason = signal.reason as Error | undefined;
  return reason?.name === 'TimeoutError' ? 'no answer in time' : 'the service is stopping';
}

/**
 * Slack's markup in a message's text: `<!channel>` pings everyone, `<@U123>` a person, and
 * `<http://e.vil|x>` shows a link under another name. Slack (and Mattermost, Rocket.Chat) take
 * `&amp;`, `&lt;` and `&gt;` as the characters themselves, so escaped text shows as it was written
 * and never as markup; a bare URL is still made a link.
 */
export function slackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A header is one line: a line break in a subject would start a header of its own. */
function headerText(text: string): string {
  return text.replace(/[\r\n\u0085\u2028\u2029]+/g, ' ');
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
          body: JSON.stringify({ text: slackText(message.text) }),
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
    async send(message, signal, timeoutMs) {
      // One connection per message. nodemailer's own time-outs close its socket (closing the transport
      // does not end a send in progress): a server that never greets, or stops answering, holds one
      // socket for at most the time-out.
      const transport = createTransport({ url: smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
      let onAbort: () => void = () => undefined;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(new AlertSendFailed(`SMTP server not done: ${abortReason(signal)}`));
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      });
      // Plain text only (no HTML part, so nothing to escape for one); the subject on one line.
      const sending = transport.sendMail({ from, to: [...to], subject: headerText(message.subject), text: message.text });
      try {
        await Promise.race([sending, aborted]);
      } catch (error) {
        if (error instanceof AlertSendFailed) {
          // Timed out: nodemailer's own time-outs (the same length) are closing the socket; the next
          // try waits for that, so a hung server never holds two. A stop does not wait.
          if ((signal.reason as Error | undefined)?.name === 'TimeoutError') await settled(sending, timeoutMs);
          throw error;
        }
        const code = (error as { responseCode?: number }).responseCode ?? (error as { code?: string }).code;
        throw new AlertSendFailed(`SMTP send failed${code !== undefined ? ` (${code})` : ''}`);
      } finally {
        signal.removeEventListener('abort', onAbort);
        transport.close();
      }
    },
  };
}
