import { behind as rowsBehind, type LedgerPosition, type LedgerSeqs } from '../sql/ledger-position';
import { LedgerCatchingUp } from './ledger-catching-up';

/** How long a read waits for the projector before it answers 503. */
const READ_WAIT_MS = 2000;
/** How often a waiting read looks at the position when no local batch tells it (another replica projects). */
const LOOK_EVERY_MS = 20;

/**
 * Resolves once the projector has applied every input stored before the call (or up to `target`),
 * rejects with LedgerCatchingUp after `waitMs`. `committed` resolves at the next local batch's commit
 * (or never, on a replica whose projector is a standby): the wait looks again then, or every 20 ms.
 */
export async function waitForLedger(
  position: () => Promise<LedgerPosition>,
  committed: () => Promise<void>,
  options: { waitMs?: number; target?: LedgerSeqs } = {},
): Promise<void> {
  const waitMs = options.waitMs ?? READ_WAIT_MS;
  const started = Date.now();
  let seen = await position();
  const target = options.target ?? seen.stored;
  const behind = (applied: LedgerSeqs) => rowsBehind(target, applied);
  while (behind(seen.applied) > 0) {
    const left = started + waitMs - Date.now();
    if (left <= 0) throw new LedgerCatchingUp(behind(seen.applied), waitMs);
    await Promise.race([committed(), new Promise((resolve) => setTimeout(resolve, Math.min(LOOK_EVERY_MS, left)))]);
    seen = await position();
  }
}
