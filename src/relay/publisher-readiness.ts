import type { Publisher } from '../publishers/publisher';
import type { Relay } from './relay';

/** The publisher as /readyz (and so `noti-receiver status`) and the console overview report it. */
export interface PublisherReadiness {
  ok: boolean;
  kind: string;
  connected: boolean;
  detail?: string;
  /** The relay's last failed publish; null once one succeeds again. */
  lastError: string | null;
  lastDeliveredAt: string | null;
}

/** The relay's own state in the same reports; null where this process runs no relay. */
export interface RelayReadiness {
  running: boolean;
  /** Only one replica relays at a time (PostgreSQL); the others are standbys, which is healthy. */
  holdsLock: boolean;
  /** The store's error when a pass failed there (a full disk refusing the delivered mark), not the publisher's. */
  storeError: string | null;
  /** Events the queue confirmed that wait for the store to record them delivered. */
  confirmedUnmarked: number;
}

/** The publisher is judged by its own errors only: a pass the store failed is the relay's storeError. */
export function publisherReadiness(publisher: Publisher, relay: Relay | null): PublisherReadiness {
  const status = publisher.status();
  const state = relay?.state() ?? null;
  return {
    ok: status.connected && !state?.lastError,
    kind: publisher.kind,
    connected: status.connected,
    detail: status.detail,
    lastError: state?.lastError ?? null,
    lastDeliveredAt: state?.lastDeliveredAt ?? null,
  };
}

export function relayReadiness(relay: Relay | null): RelayReadiness | null {
  const state = relay?.state() ?? null;
  return state && { running: state.running, holdsLock: state.holdsLock, storeError: state.storeError, confirmedUnmarked: state.confirmedUnmarked };
}

/** Both, read together: why the backlog grows, for the console's overview. */
export interface DeliveryReadiness {
  publisher: PublisherReadiness;
  relay: RelayReadiness | null;
}
