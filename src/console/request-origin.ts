import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { normalizeAddress, type AddressList } from '../config/address-list';
import { clientAddress } from '../http/source-check';

/** What the console believes about where a request came from. */
export interface RequestOrigin {
  /** The origin the operator's browser is on, e.g. `https://console.example.com`; null when the host is not one. */
  origin: string | null;
  /** The browser reached the console over TLS (here, or at a trusted proxy): the cookie must be Secure. */
  https: boolean;
  /** The operator's address: what the sign-in throttle counts and the audit names. */
  client: string;
  /**
   * The host the browser asked for is the console's: ADMIN_PUBLIC_URL's or the listener's own
   * address (always true when ADMIN_PUBLIC_URL is unset). A page on an attacker's domain that
   * re-resolves to this listener (DNS rebinding) names the attacker's host, and is refused.
   */
  knownHost: boolean;
}

/**
 * Behind a TLS-terminating proxy the browser is on the proxy's `https://public-host`, which the
 * proxy reports in X-Forwarded-Proto and -Host. Those headers, like X-Forwarded-For, are believed
 * only from a peer in TRUST_PROXY (the list and the right-to-left walk the notification source
 * check uses): from anyone else they are the client's own words, and believing them would let a
 * page on another site pass the Origin check. With ADMIN_PUBLIC_URL set, a request for its host
 * is on its origin whatever the proxy said of the scheme: the browser's address bar shows that URL.
 */
export function requestOrigin(req: IncomingMessage, trustProxy: AddressList, publicUrl: URL | null = null): RequestOrigin {
  const peer = req.socket.remoteAddress ?? '';
  const fromProxy = trustProxy.has(peer);
  const proto = fromProxy ? firstValue(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const https = proto === 'https' || proto === 'http' ? proto === 'https' : (req.socket as Partial<TLSSocket>).encrypted === true;
  const host = (fromProxy ? firstValue(req.headers['x-forwarded-host']) : undefined) ?? req.headers.host ?? '';
  const client = clientAddress(peer, joined(req.headers['x-forwarded-for']), trustProxy);
  if (publicUrl && hostOf(publicUrl.protocol, host) === publicUrl.host) {
    return { origin: publicUrl.origin, https: publicUrl.protocol === 'https:', client, knownHost: true };
  }
  return {
    origin: canonicalOrigin(`${https ? 'https' : 'http'}://${host}`),
    https,
    client,
    knownHost: publicUrl === null || isListenerAddress(req, host),
  };
}

/** `host` as a URL of that scheme spells it (lower case, no default port); null when it is no host. */
function hostOf(protocol: string, host: string): string | null {
  if (host === '' || /[/?#@\\]/.test(host)) return null;
  try {
    return new URL(`${protocol}//${host}`).host;
  } catch {
    return null;
  }
}

/** The address and port this connection reached, as a browser typing them would send them in Host. */
function isListenerAddress(req: IncomingMessage, host: string): boolean {
  const address = normalizeAddress(req.socket.localAddress ?? '');
  const port = req.socket.localPort;
  if (!address || port === undefined) return false;
  const own = hostOf('http:', `${address.includes(':') ? `[${address}]` : address}:${port}`);
  return own !== null && hostOf('http:', host) === own;
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
