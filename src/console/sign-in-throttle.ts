/**
 * Wrong tokens per address: after `limit` in `windowMs`, that address may not try again until the
 * window has passed. A generated token cannot be guessed anyway; a weak ADMIN_TOKEN chosen by hand
 * could be, and the admin listener may be reachable by more machines than intended.
 */
export interface SignInThrottle {
  /** Milliseconds until `address` may try again; 0 when it may try now. */
  waitMs(address: string): number;
  /** Counts a wrong token; how many `address` has sent in the window, this one included. */
  failed(address: string): number;
  succeeded(address: string): void;
  /** Wrong tokens from `address` in the window. */
  failures(address: string): number;
}

/** How long wrong tokens are remembered, and so how long a lockout lasts at most. */
export const SIGN_IN_WINDOW_MS = 10 * 60 * 1000;

export function createSignInThrottle(options: { now: () => number; limit?: number; windowMs?: number; maxAddresses?: number }): SignInThrottle {
  const limit = options.limit ?? 10;
  const windowMs = options.windowMs ?? SIGN_IN_WINDOW_MS;
  // Counted per client address, so many addresses (a spray through a proxy) must not grow it
  // without end: past the bound the address that failed longest ago is forgotten first.
  const maxAddresses = options.maxAddresses ?? 10_000;
  const failures = new Map<string, number[]>();
  const recent = (address: string) => {
    const since = options.now() - windowMs;
    const kept = (failures.get(address) ?? []).filter((at) => at > since);
    if (kept.length === 0) failures.delete(address);
    else failures.set(address, kept);
    return kept;
  };
  return {
    waitMs(address) {
      const kept = recent(address);
      return kept.length < limit ? 0 : kept[kept.length - limit]! + windowMs - options.now();
    },
    failed(address) {
      const kept = [...recent(address), options.now()];
      failures.delete(address);
      failures.set(address, kept);
      while (failures.size > maxAddresses) failures.delete(failures.keys().next().value!);
      return kept.length;
    },
    succeeded(address) {
      failures.delete(address);
    },
    failures: (address) => recent(address).length,
  };
}
