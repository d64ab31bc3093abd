import type { IncomingMessage } from 'node:http';
import { AddressList, normalizeAddress } from '../config/address-list';
import { GATEWAY_ADDRESSES, type GatewayEnv } from '../config/gateway-addresses';
import type { GatewayEnvironment } from '../notifications/normalized-event';
import { ForbiddenSource } from '../errors';
import { shownAddress } from './forwarded-for';

export interface SourcePolicy {
  gatewayEnv: GatewayEnv;
  extraAllowed: AddressList;
  trustProxy: AddressList;
}

export interface Source {
  ip: string;
  environment: GatewayEnvironment;
}

/**
 * The client address: the socket peer, or, only when that peer is a proxy we were told to
 * trust, the right-most X-Forwarded-For entry that is not itself a trusted proxy. The
 * left-most entries are whatever the client chose to write, so they are never believed.
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, trustProxy: AddressList): string {
  const direct = normalizeAddress(peer);
  if (!forwardedFor || !trustProxy.has(direct)) return direct;
  const hops = forwardedFor.split(',').map((hop) => normalizeAddress(hop)).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    if (!trustProxy.has(hops[i]!)) return hops[i]!;
  }
  return hops[0] ?? direct;
}

/** Which allowlist admits an address under this policy (null: none); built once per app. */
export function sourceClassifier(policy: SourcePolicy): (address: string) => GatewayEnvironment | null {
  const gateway = new AddressList();
  for (const ip of GATEWAY_ADDRESSES[policy.gatewayEnv]) gateway.add(ip);
  return (address) => {
    if (gateway.has(address)) return policy.gatewayEnv;
    if (policy.extraAllowed.has(address)) return 'extra';
    return null;
  };
}

/**
 * Runs before the body is read: bytes from strangers are never parsed nor stored. Throws
 * ForbiddenSource for an address outside the allowlist.
 */
export function sourceCheck(policy: SourcePolicy): (req: IncomingMessage) => Source {
  const classify = sourceClassifier(policy);
  return (req) => {
    const forwarded = req.headers['x-forwarded-for'];
    const peer = req.socket.remoteAddress ?? '';
    const ip = clientAddress(peer, Array.isArray(forwarded) ? forwarded.join(',') : forwarded, policy.trustProxy);
    const environment = classify(ip);
    if (environment === null) throw new ForbiddenSource(shownAddress(ip));
    return { ip, environment };
  };
}
