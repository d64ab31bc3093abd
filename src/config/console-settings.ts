import { z } from 'zod';

/**
 * The console's origin as browsers see it. Only an origin (scheme, host, port): the console is
 * always served under /console, and a path here would suggest otherwise.
 */
const publicUrl = z.string().transform((text, ctx): URL => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be an http(s):// origin such as https://ops.shop.example' });
    return z.NEVER;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname.replace(/\/+$/, '') !== '' || url.search || url.hash || url.username || url.password) {
    ctx.addIssue({ code: 'custom', message: 'must be an http(s):// origin with no path, such as https://ops.shop.example' });
    return z.NEVER;
  }
  return new URL(url.origin);
});

/** The console for a team (the public origin, single sign-on, session lifetime). */
export const consoleSettings = {
  ADMIN_PUBLIC_URL: publicUrl.optional(),
  // An HTTP header name (RFC 9110 token); headers arrive in lower case in Node.
  ADMIN_AUTH_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name such as X-Forwarded-Email')
    .transform((name) => name.toLowerCase())
    .optional(),
  ADMIN_SESSION_IDLE_MINUTES: z.coerce
    .number({ error: 'ADMIN_SESSION_IDLE_MINUTES must be a number' })
    .int()
    .min(1, 'must be at least 1 minute')
    .max(720, 'must be at most 720 (a session ends 12 h after sign-in anyway)')
    .default(30),
  // A month of a busy mall's transaction list is a few MB; the limit is checked on Content-Length
  // before a byte of an upload is read, so a larger body never reaches memory.
  RECONCILE_MAX_FILE_BYTES: z.coerce
    .number({ error: 'RECONCILE_MAX_FILE_BYTES must be a number' })
    .int()
    .min(1024, 'must be at least 1024 bytes')
    .max(32 * 1024 * 1024, 'must be at most 33554432 (32 MiB, the most an import reads)')
    .default(20 * 1024 * 1024),
};
