import type { Request, Response } from 'express';

const SESSION_COOKIE = 'noti_console';
/**
 * Over HTTPS the cookie is `__Host-` prefixed: a browser takes such a cookie only when it is
 * Secure, has Path=/ and no Domain, so no sibling subdomain and no plain-http page can plant or
 * overwrite it (cookie tossing a session into the console).
 */
const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

/** The one name a request's session cookie has: the prefixed one over HTTPS, the plain one otherwise. */
function sessionCookieName(https: boolean): string {
  return https ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** Only the name this request's scheme uses: over HTTPS a plain `noti_console` (which anyone could set) is no session. */
export function readSessionCookie(req: Request, https: boolean): string | undefined {
  const name = sessionCookieName(https);
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * HttpOnly: no script can read it. SameSite=Strict: no other site's page can make the browser
 * send it. Secure whenever the console is reached over TLS (ADMIN_PUBLIC_URL is https, or a
 * terminating proxy in TRUST_PROXY says so in X-Forwarded-Proto). Path=/ and no Domain always,
 * as the `__Host-` prefix requires.
 */
export function setSessionCookie(res: Response, sessionId: string, https: boolean): void {
  res.cookie(sessionCookieName(https), sessionId, { httpOnly: true, sameSite: 'strict', secure: https, path: '/' });
}

export function clearSessionCookie(res: Response, https: boolean): void {
  res.clearCookie(sessionCookieName(https), { httpOnly: true, sameSite: 'strict', secure: https, path: '/' });
}
