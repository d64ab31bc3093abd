import type { NextFunction, Request, Response } from 'express';
import type { ConsoleDeps } from './console-deps';
import { requestOrigin } from './request-origin';

/**
 * Against DNS rebinding: a page on an attacker's domain whose name is made to resolve to this
 * listener shares the browser's origin with it, so same-origin rules and SameSite let it read the
 * console. Its requests still name the attacker's host, so with ADMIN_PUBLIC_URL set a host that is
 * neither that one nor the listener's own address is refused before any console code runs.
 */
export function requireKnownHost(config: ConsoleDeps['config']) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (requestOrigin(req, config.TRUST_PROXY, config.ADMIN_PUBLIC_URL ?? null).knownHost) return next();
    res.status(421).type('text/plain').send(`Misdirected request: this console answers at ${config.ADMIN_PUBLIC_URL?.origin ?? 'its own address'} only.`);
  };
}
