import type { EventType, NotiType } from './event-types';

export type GatewayEnvironment = 'production' | 'development' | 'extra';

export interface BasketItem {
  productNo: string;
  productPgCno: string;
  sellerId: string;
}

/** What the merchant's internal queue receives. */
export interface NormalizedEvent {
  /** Stable: derived from the dedup key, so a consumer can be idempotent on it. */
  id: string;
  type: EventType;
  notiType: NotiType;
  mallId: string;
  pgCno: string;
  shopOrderNo: string | null;
  cancelPgCno: string | null;
  resultCode: string;
  resultMessage: string;
  status: { code: string; message: string | null } | null;
  amount: number | null;
  occurredAt: string | null;
  receivedAt: string;
  basket: BasketItem[];
  source: { ip: string; environment: GatewayEnvironment };
  data: Record<string, unknown>;
}
