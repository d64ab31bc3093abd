import type { GatewayBooks } from './gateway-books';
import type { Ledger } from './ledger';
import type { NotificationSender } from './notification-sender';
import type { ScenarioBook } from './scenarios';
import type { Timeline } from './timeline';

export interface SandboxSettings {
  /** Where browsers reach the sandbox: the base of every `paymentPageUrl`. */
  publicUrl: string;
  /** Where notifications go when a call names no `notifyUrl` (VAN approvals usually do not). */
  defaultNotifyUrl: string | null;
  /** The merchant's HMAC key for `msgAuthValue`; undefined when none is configured for that mall. */
  secretKeyFor: (mallId: string) => string | undefined;
}

/** Everything a sandbox route needs, passed in rather than imported, so two sandboxes never share state. */
export interface SandboxContext {
  settings: SandboxSettings;
  ledger: Ledger;
  /** What the gateway made, as its portal lists it (not what it notified). */
  books: GatewayBooks;
  timeline: Timeline;
  scenarios: ScenarioBook;
  sender: NotificationSender;
}
