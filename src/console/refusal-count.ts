/** Why a console sign-in was refused, as the metric counts it (a closed set: never a name or an address). */
export type RefusalReason = 'wrong_token' | 'locked_out' | 'sign_on';

/**
 * Refused sign-ins counted per key (the reason and the client address) and window, so the audit
 * gets one row per client and window however many are sent: an attacker on the admin port must not
 * push every real action off the Audit page. The log and the metric still see each one.
 */
export interface RefusalCount {
  /** Counts a refusal of `key`; the count in its window so far (1: the first, the one to audit). */
  add(key: string, reason: RefusalReason): number;
  /** Counts a refusal the audit records every time (a wrong token: the throttle bounds those). */
  tally(reason: RefusalReason): void;
}

export function createRefusalCount(options: {
  now: () => number;
  windowMs: number;
  maxKeys?: number;
  /** Each refusal as it happens (the metric). */
  onRefusal?: (reason: RefusalReason) => void;
}): RefusalCount {
  // Keyed by client address: many addresses must not grow it without end, so past the bound the
  // key counted longest ago is forgotten first (it may then write one more row, never unbounded).
  const maxKeys = options.maxKeys ?? 10_000;
  const windows = new Map<string, { since: number; count: number }>();
  return {
    tally: (reason) => options.onRefusal?.(reason),
    add(key, reason) {
      options.onRefusal?.(reason);
      const now = options.now();
      const open = windows.get(key);
      const current = open && now - open.since < options.windowMs ? { since: open.since, count: open.count + 1 } : { since: now, count: 1 };
      windows.delete(key);
      windows.set(key, current);
      while (windows.size > maxKeys) windows.delete(windows.keys().next().value!);
      return current.count;
    },
  };
}
