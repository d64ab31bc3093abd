import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { AddressList } from '../config/address-list';
import { clientAddress } from '../http/source-check';

/** What the console believes about where a request came from. */
export interface RequestOrigin {
  /** The origin the operator's browser is on, e.g. `https://console.example.com`; null when the host is not one. */
  origin: string | null;
  /** The browser reached the console over TLS (here, or at a trusted proxy): the cookie must be Secure. */
  https: boolean;
  /** The operator's address: what the sign-in throttle counts and the audit names. */
  client: string;
}

/**
 * Behind a TLS-terminating proxy the browser is on the proxy's `https://public-host`, which the
 * proxy reports in X-Forwarded-Proto and -Host. Those headers, like X-Forwarded-For, are believed
 * only from a peer in TRUST_PROXY (the list and the right-to-left walk the notification source
 * check uses): from anyone else they are the client's own words, and believing them would let a
 * page on another site pass the Origin check. A public URL set in the configuration, once there
 * is one, would take the origin's place here.
 */
export function requestOrigin(req: IncomingMessage, trustProxy: AddressList): RequestOrigin {
  const peer = req.socket.remoteAddress ?? '';
  const fromProxy = trustProxy.has(peer);
  const proto = fromProxy ? firstValue(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const https = proto === 'https' || proto === 'http' ? proto === 'https' : (req.socket as Partial<TLSSocket>).encrypted === true;
  const host = (fromProxy ? firstValue(req.headers['x-forwarded-host']) : undefined) ?? req.headers.host ?? '';
  return {
    origin: canonicalOrigin(`${https ? 'https' : 'http'}://${host}`),
    https,
    client: clientAddress(peer, joined(req.headers['x-forwarded-for']), trustProxy),
  };
}

/**
 * An origin as a browser writes it: host in lower case, no default port (a proxy may say
 * `console.example.com:443` where the browser's Origin has none); null for anything else.
 */
export function canonicalOrigin(text: string): string | null {
  try {
    const origin = new URL(text).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** A proxy chain may append: the first value is what the outermost proxy (the browser's) saw. */
function firstValue(header: string | string[] | undefined): string | undefined {
  const first = joined(header)?.split(',')[0]?.trim();
  return first ? first : undefined;
}

function joined(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header.join(',') : header;
}
