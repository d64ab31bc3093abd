import type { Publisher } from '../publishers/publisher';
import type { Relay } from '../relay/relay';

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
