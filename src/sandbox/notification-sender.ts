import type { AckForm } from '../http/acks';
import { checkAck } from '../simulator/ack-check';
import { createPoster } from '../simulator/http-post';
import { faultyBody } from './notification-faults';
import type { NotifyScenario } from './scenarios';
import type { DeliveryAttempt, NotificationEntry, Timeline } from './timeline';

/** One notification as the gateway puts it on the wire, with the ids the timeline shows. */
export interface OutgoingNotification {
  notiType: string;
  url: string;
  body: Buffer;
  contentType: string;
  ackForm: AckForm;
  pgCno: string;
  cancelPgCno: string | null;
  shopOrderNo: string;
}

export interface DeliverySchedule {
  /** The gateway waits 3 minutes between tries; tests use milliseconds. */
  intervalMs: number;
  /** The gateway gives up after 10 tries. */
  maxTries: number;
  /** How long one try waits for the ack. */
  timeoutMs: number;
}

export interface NotificationSender {
  /** Starts delivering in the background; the entry fills in as tries are answered. */
  send(notification: OutgoingNotification, scenario?: NotifyScenario): NotificationEntry;
  /** Resolves when every delivery started so far has finished (acked or given up). */
  idle(): Promise<void>;
  /** Stops every retry timer, so a closed sandbox keeps nothing alive. */
  close(): void;
}

export function createNotificationSender(schedule: DeliverySchedule, timeline: Timeline): NotificationSender {
  const running = new Set<Promise<void>>();
  const timers = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  let stopped = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const handle = { timer: setTimeout(() => wake(), ms), wake: () => wake() };
      const wake = () => {
        clearTimeout(handle.timer);
        timers.delete(handle);
        resolve();
      };
      timers.add(handle);
    });

  async function deliver(entry: NotificationEntry, notification: OutgoingNotification, scenario?: NotifyScenario): Promise<void> {
    if (scenario?.kind === 'lost') {
      // As a receiver down for all ten tries sees it: nothing arrives, and the gateway gives up.
      entry.attempts.push({ at: new Date().toISOString(), copy: 1, replyLost: false, status: null, ack: null, verdict: 'error', reason: 'dropped by the sandbox (scenario lost): every try failed' });
      entry.state = 'gave-up';
      return;
    }
    const body = faultyBody(notification.body, notification.ackForm === 'form', scenario);
    const copies = scenario?.kind === 'duplicates' ? scenario.copies : 1;
    const poster = createPoster(notification.url, { maxSockets: copies, timeoutMs: schedule.timeoutMs });
    const attempt = async (copy: number, replyLost: boolean): Promise<DeliveryAttempt> => {
      const at = new Date().toISOString();
      try {
        const answer = await poster.post(body, { 'Content-Type': notification.contentType });
        const verdict = checkAck(notification.ackForm, answer.status, answer.body);
        const ack = answer.body.toString(notification.ackForm === 'form' ? 'latin1' : 'utf8').slice(0, 300);
        return { at, copy, replyLost, status: answer.status, ack, verdict: verdict.kind, reason: verdict.kind === 'acked' ? null : verdict.reason };
      } catch (error) {
        return { at, copy, replyLost, status: null, ack: null, verdict: 'error', reason: (error as Error).message };
      }
    };
    try {
      // Gateway rule: anything but the exact 0000 ack (5001, another status, a network error,
      // an ack in the wrong form) is tried again after the interval, up to maxTries in all.
      for (let tryNumber = 1; tryNumber <= schedule.maxTries && !stopped; tryNumber += 1) {
        if (tryNumber > 1) await sleep(schedule.intervalMs);
        if (stopped) break;
        const batch = tryNumber === 1 ? copies : 1;
        const results = await Promise.all(Array.from({ length: batch }, (_, i) => attempt(i + 1, false)));
        entry.attempts.push(...results);
        if (results.some((r) => r.verdict === 'acked')) {
          entry.state = 'acked';
          break;
        }
      }
      if (entry.state !== 'acked') {
        entry.state = 'gave-up';
        return;
      }
      if (scenario?.kind === 'reply-lost') {
        await sleep(schedule.intervalMs);
        if (!stopped) entry.attempts.push(await attempt(1, true));
      }
    } finally {
      poster.close();
    }
  }

  return {
    send(notification, scenario) {
      const { notiType, url, pgCno, cancelPgCno, shopOrderNo } = notification;
      const entry = timeline.startNotification({ notiType, url, pgCno, cancelPgCno, shopOrderNo });
      const run = deliver(entry, notification, scenario).finally(() => running.delete(run));
      running.add(run);
      return entry;
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
    close() {
      stopped = true;
      for (const handle of [...timers]) handle.wake();
    },
  };
}
