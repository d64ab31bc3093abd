import { createHmac } from 'node:crypto';

export type MsgAuthEncoding = 'hex' | 'base64';

/** The gateway's `msgAuthValue` for a cancellation: HMAC-SHA256 over `pgCno|shopTransactionId`. */
export function msgAuthValue(key: string, pgCno: string, shopTransactionId: string, encoding: MsgAuthEncoding): string {
  return createHmac('sha256', key).update(`${pgCno}|${shopTransactionId}`, 'utf8').digest(encoding);
}

export interface GatewayKeys {
  gatewayKey: string | undefined;
  gatewayKeysByMall: Record<string, string>;
}

/** The mall's own key when GATEWAY_SECRET_KEY_<MALLID> is set, else the default; undefined when neither is. */
export function keyForMall(keys: GatewayKeys, mallId: string): string | undefined {
  // Environment variable names are conventionally upper case, mall ids not always.
  return keys.gatewayKeysByMall[mallId] ?? keys.gatewayKeysByMall[mallId.toUpperCase()] ?? keys.gatewayKey;
}
