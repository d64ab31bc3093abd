/** What the sandbox saw and did, in order: the tester's record of a rehearsal. */
export interface CallEntry {
  seq: number;
  kind: 'call';
  at: string;
  operation: string;
  path: string;
  shopTransactionId: string | null;
  request: unknown;
  scenario: string | null;
  /** `answered`, `withheld` (a time-out: the caller never hears back) or `reset` (connection dropped). */
  outcome: 'answered' | 'withheld' | 'reset';
  answer: Record<string, unknown> | null;
}

export interface DeliveryAttempt {
  at: string;
  /** `copy` numbers concurrent duplicates; `replyLost` marks a resend after a 0000 ack. */
  copy: number;
  replyLost: boolean;
  status: number | null;
  ack: string | null;
  verdict: 'acked' | 'refused' | 'unexpected' | 'error';
  reason: string | null;
}

export interface NotificationEntry {
  seq: number;
  kind: 'notification';
  at: string;
  notiType: string;
  url: string;
  pgCno: string;
  cancelPgCno: string | null;
  shopOrderNo: string;
  state: 'sending' | 'acked' | 'gave-up';
  attempts: DeliveryAttempt[];
}

export type TimelineEntry = CallEntry | NotificationEntry;

export interface Timeline {
  entries(): readonly TimelineEntry[];
  recordCall(call: Omit<CallEntry, 'seq' | 'kind' | 'at'>): CallEntry;
  startNotification(notification: Omit<NotificationEntry, 'seq' | 'kind' | 'at' | 'state' | 'attempts'>): NotificationEntry;
}

/** A sandbox left running for days keeps only the recent past. */
const MAX_ENTRIES = 5_000;

export function createTimeline(): Timeline {
  const list: TimelineEntry[] = [];
  let seq = 0;
  const trim = () => void (list.length > MAX_ENTRIES && list.splice(0, list.length - MAX_ENTRIES));
  return {
    entries: () => list,
    recordCall(call) {
      const entry: CallEntry = { seq: ++seq, kind: 'call', at: new Date().toISOString(), ...call };
      list.push(entry);
      trim();
      return entry;
    },
    startNotification(notification) {
      const entry: NotificationEntry = { seq: ++seq, kind: 'notification', at: new Date().toISOString(), state: 'sending', attempts: [], ...notification };
      list.push(entry);
      trim();
      return entry;
    },
  };
}
