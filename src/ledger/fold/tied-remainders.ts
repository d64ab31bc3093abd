/**
 * The gateway stamps its events to the second: cancels of one payment stamped in the same second
 * have no order the ledger can know (sorting them by id is a hash, not the gateway's order). Their
 * stated remainders are consistent when some order explains them.
 */

/** Groups larger than this (never seen: a cancel a second per payment is already many) are read in the order of their stated remainders. */
const EXACT_SEARCH_LIMIT = 12;

/**
 * True when some order of the members takes `start` down so that each stated remainder is the
 * running remainder right after its cancel (one without a stated remainder fits anywhere). An
 * exact search over which members were applied (the running remainder depends only on that set);
 * a larger group is read in the order of its stated remainders, highest first.
 */
export function consistentInSomeOrder(start: number, members: ReadonlyArray<{ amount: number; stated: number | null }>): boolean {
  if (members.length === 1) return members[0]!.stated === null || members[0]!.stated === start - members[0]!.amount;
  if (members.length > EXACT_SEARCH_LIMIT) {
    // Without a stated remainder a member fits anywhere: first, before the ones that state one.
    const rank = (m: { stated: number | null }): number => m.stated ?? Number.MAX_SAFE_INTEGER;
    const ordered = [...members].sort((a, b) => rank(b) - rank(a) || b.amount - a.amount);
    let running = start;
    for (const { amount, stated } of ordered) {
      running -= amount;
      if (stated !== null && stated !== running) return false;
    }
    return true;
  }
  const full = (1 << members.length) - 1;
  const dead = new Set<number>();
  const reach = (applied: number, running: number): boolean => {
    if (applied === full) return true;
    if (dead.has(applied)) return false;
    for (let i = 0; i < members.length; i += 1) {
      const bit = 1 << i;
      const { amount, stated } = members[i]!;
      if ((applied & bit) === 0 && (stated === null || stated === running - amount) && reach(applied | bit, running - amount)) return true;
    }
    dead.add(applied);
    return false;
  };
  return reach(0, start);
}
