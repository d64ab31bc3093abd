import type { AlertChannel } from './alert-channels';
import type { AlertMessage } from './alert-message';
import { ALERT_TEXTS, type AlertLanguage } from './alert-texts';

export interface ChannelAnswer {
  channel: AlertChannel['name'];
  ok: boolean;
  /** What the channel answered: `accepted`, or why it did not take the message (never a secret). */
  answer: string;
}

/** The message `alerts test` sends: it names no order and carries nothing a notification wrote. */
export function testAlertMessage(language: AlertLanguage, at: Date): AlertMessage {
  const t = ALERT_TEXTS[language];
  return { subject: `[${t.product}] ${t.testSubject}`, text: [t.testSubject, t.testLine, `${t.at}: ${t.time(at.toISOString())}`].join('\n') };
}

/** One message to each channel, side by side, each bounded by `timeoutMs`: what each answered. */
export async function sendTestAlert(channels: readonly AlertChannel[], message: AlertMessage, timeoutMs: number): Promise<ChannelAnswer[]> {
  return Promise.all(channels.map(async (channel): Promise<ChannelAnswer> => {
    try {
      await channel.send(message, AbortSignal.timeout(timeoutMs), timeoutMs);
      return { channel: channel.name, ok: true, answer: 'accepted' };
    } catch (error) {
      return { channel: channel.name, ok: false, answer: (error as Error).message };
    }
  }));
}
