import type { NextFunction, Request, Response } from 'express';

/**
 * The sandbox's forms pay or decline a trade and arm failure scenarios; without a check, any page
 * the tester opens could post them (a cross-site form needs no CORS). A browser names the page a
 * POST comes from in Origin (Referer when it sends no Origin), so one naming another site, or the
 * opaque `null` of a sandboxed frame, is refused. A POST with neither is a program (the merchant's
 * server calling the gateway's services, curl, a test) and passes, as at the gateway.
 * Our own origins: the address the browser used (Host) and --public-url.
 */
export function sameOriginPosts(publicUrl: () => string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST') return next();
    const claimed = req.get('origin') ?? refererOrigin(req.get('referer'));
    if (claimed === undefined) return next();
    const own = new Set([`${req.protocol}://${req.get('host') ?? ''}`, originOf(publicUrl())]);
    if (own.has(claimed)) return next();
    res.status(403).type('text/plain').send(`Forbidden: a form posted from ${claimed}, not from the sandbox's own pages (Origin check).`);
  };
}

function refererOrigin(referer: string | undefined): string | undefined {
  return referer === undefined ? undefined : (originOf(referer) ?? 'null');
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
