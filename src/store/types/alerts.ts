import type { Discrepancy } from '../../ledger/fold/order-record';

/** Where the alerts' follower is: the last inbox seq and delivery_attempts id it has looked at. */
export interface AlertPosition {
  inboxSeq: number;
  attemptId: number;
}

/** An event the relay gave up on, as the alert about it may tell it: ids and kinds, no body, no error text. */
export interface DeadEventRow {
  attemptId: number;
  eventId: string;
  eventType: string | null;
  mallId: string | null;
  shopOrderNo: string | null;
  attempts: number | null;
  at: string;
  /** Its notification came, signed, from this receiver's own simulator (no real money moved); false too when retention has pruned it. */
  simulated: boolean;
}

/** What the follower has not looked at yet, up to `to`: the ledger's events that may be news and the events gone dead. */
export interface AlertSources {
  from: AlertPosition;
  to: AlertPosition;
  /** `ledger.discrepancy`, and `order.status_changed` to `ledger_error`, as stored. */
  ledgerEvents: Array<{ seq: number; eventJson: string }>;
  deadEvents: DeadEventRow[];
  /**
   * The events' orders that this receiver's own simulator made up (every notification of each
   * carried its mark), each as its `orderKeyText`: fake money wakes nobody.
   */
  simulatedOrders: string[];
  /**
   * The open discrepancies of the orders whose change the events report and that are real now: one
   * that was held back while its order looked simulated is news once a real notification arrives.
   */
  realOrders: RealOrderDiscrepancies[];
}

export interface RealOrderDiscrepancies {
  mallId: string;
  shopOrderNo: string;
  /** The expectation's currency; null without one. */
  currency: string | null;
  discrepancies: Discrepancy[];
}

/** One thing to tell, as stored in `alerts`: `json` holds only ids, kinds and amounts. */
export interface NewAlert {
  key: string;
  kind: string;
  json: string;
}

/** The alerts a channel's next message carries, claimed under its lease. */
export interface ClaimedAlerts {
  /** The first alerts after the channel's last message, in order (at most the claim's limit). */
  alerts: Array<{ id: number; json: string }>;
  /** How many there are in all (the message says how many it does not list). */
  total: number;
  /** The last id the message covers: once sent, the channel is past it. */
  through: number;
  /** Failed sends of this message so far (for the backoff). */
  attempts: number;
}

export interface ClaimRules {
  nowMs: number;
  /** How long the claim holds the channel: longer than one send may take. */
  leaseMs: number;
  /** At most one message per window: what opens meanwhile waits and goes as one digest. */
  windowMs: number;
  limit: number;
}

export type AlertSendResult = { sent: true; through: number; nowMs: number } | { sent: false; error: string; nextTryMs: number };

export interface AlertChannelState {
  channel: string;
  /** Alerts stored and not yet sent on this channel. */
  pending: number;
  attempts: number;
  lastError: string | null;
  lastSentMs: number;
  nextTryMs: number;
  leaseOwner: string | null;
  leaseUntilMs: number;
}

/** The alerts' verbs: following the store, storing what to tell, and each channel's sending. */
export interface AlertQueries {
  alertSources(limit: number): Promise<AlertSources>;
  /** Stores the alerts and moves the position from `from` to `to`; false (nothing stored) when another process moved it first. */
  recordAlerts(from: AlertPosition, to: AlertPosition, alerts: readonly NewAlert[], at: string): Promise<boolean>;
  /** Makes the channel known, starting after the alerts stored so far (a channel added later does not replay the past). */
  openAlertChannel(channel: string): Promise<void>;
  /** The channel's next message, when it is due and no other process holds it; null otherwise. */
  claimAlerts(channel: string, owner: string, rules: ClaimRules): Promise<ClaimedAlerts | null>;
  /** Records a send's outcome and lets the lease go. */
  finishAlerts(channel: string, owner: string, result: AlertSendResult): Promise<void>;
  alertChannels(): Promise<AlertChannelState[]>;
}
