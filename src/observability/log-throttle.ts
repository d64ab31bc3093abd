/**
 * Lets the first `limit` lines of a kind through per window and counts the rest, so a
 * stranger hammering the notification port cannot fill the disk with log lines. The caller
 * logs the count of what was held back when the next window opens.
 */
export interface LogThrottle {
  /** `log`: write this one; `suppressedBefore`: how many were held back in the window that just ended. */
  admit(now?: number): { log: boolean; suppressedBefore: number };
}

export function logThrottle(limit: number, windowMs: number): LogThrottle {
  let windowStart = Number.NEGATIVE_INFINITY;
  let logged = 0;
  let suppressed = 0;
  return {
    admit(now = Date.now()) {
      let suppressedBefore = 0;
      if (now - windowStart >= windowMs) {
        suppressedBefore = suppressed;
        windowStart = now;
        logged = 0;
        suppressed = 0;
      }
      if (logged < limit) {
        logged += 1;
        return { log: true, suppressedBefore };
      }
      suppressed += 1;
      return { log: false, suppressedBefore };
    },
  };
}
