import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
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
  return forwardedClient(forwardedFor, trustProxy) ?? direct;
}

/** What a trusted proxy's X-Forwarded-For names as the client; undefined when it names no one. */
function forwardedClient(forwardedFor: string, trustProxy: AddressList): string | undefined {
  const hops = forwardedFor.split(',').map((hop) => normalizeAddress(hop)).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    if (!trustProxy.has(hops[i]!)) return hops[i]!;
  }
  return hops[0];
}

/** Which allowlist admits an address under this policy (null: none); built once per app. */
function sourceClassifier(policy: SourcePolicy): (address: string) => GatewayEnvironment | null {
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
 *
 * A keep-alive connection carries many requests from one peer, so the peer's verdict is judged
 * once per socket. X-Forwarded-For is the client's to write on each request, so when a trusted
 * proxy sends one it is judged per request.
 */
export function sourceCheck(policy: SourcePolicy): (req: IncomingMessage) => Source {
  const classify = sourceClassifier(policy);
  const peers = new WeakMap<Socket, PeerVerdict>();
  const judgePeer = (peer: string): PeerVerdict => {
    const address = normalizeAddress(peer);
    const environment = classify(address);
    return {
      address,
      isTrustedProxy: policy.trustProxy.has(address),
      source: environment === null ? null : Object.freeze({ ip: address, environment }),
    };
  };
  return (req) => {
    const { socket } = req;
    let peer = peers.get(socket);
    if (!peer) {
      peer = judgePeer(socket.remoteAddress ?? '');
      // A socket already gone has no address; nothing is remembered for it.
      if (socket.remoteAddress !== undefined) peers.set(socket, peer);
    }
    const header = req.headers['x-forwarded-for'];
    const forwarded = Array.isArray(header) ? header.join(',') : header;
    if (!forwarded || !peer.isTrustedProxy) {
      if (peer.source === null) throw new ForbiddenSource(shownAddress(peer.address));
      return peer.source;
    }
    const ip = forwardedClient(forwarded, policy.trustProxy) ?? peer.address;
    const environment = classify(ip);
    if (environment === null) throw new ForbiddenSource(shownAddress(ip));
    return { ip, environment };
  };
}

/** What one socket's peer address decides, whatever its requests say. */
interface PeerVerdict {
  /** Normalized (`::ffff:a.b.c.d` as `a.b.c.d`). */
  address: string;
  isTrustedProxy: boolean;
  /** The peer as the client, when no X-Forwarded-For is believed; null: not allowed. */
  source: Readonly<Source> | null;
}
