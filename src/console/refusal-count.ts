/**
 * Refused sign-ins counted per client address and window, so the audit gets one row per client
 * and window however many are sent: an attacker on the admin port must not push every real action
 * off the Audit page (the log and its count still see each one).
 */
export interface RefusalCount {
  /** Counts a refusal of `key`; the count in its window so far (1: the first, the one to audit). */
  add(key: string): number;
}

export function createRefusalCount(options: { now: () => number; windowMs: number; maxKeys?: number }): RefusalCount {
  // Keyed by client address: many addresses must not grow it without end, so past the bound the
  // key counted longest ago is forgotten first (it may then write one more row, never unbounded).
  const maxKeys = options.maxKeys ?? 10_000;
  const windows = new Map<string, { since: number; count: number }>();
  return {
    add(key) {
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
