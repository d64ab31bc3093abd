import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'noti_console';

export function readSessionCookie(req: Request): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * HttpOnly: no script can read it. SameSite=Strict: no other site's page can make the browser
 * send it. Secure whenever the console is reached over TLS (a terminating proxy in TRUST_PROXY
 * says so in X-Forwarded-Proto).
 */
export function setSessionCookie(res: Response, sessionId: string, https: boolean): void {
  res.cookie(SESSION_COOKIE, sessionId, { httpOnly: true, sameSite: 'strict', secure: https, path: '/' });
}

export function clearSessionCookie(res: Response, https: boolean): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', secure: https, path: '/' });
}
