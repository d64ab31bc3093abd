import type { CommandLane } from '../store/command-types';
import { leaseMs, type CommandDeps } from './command-deps';
import type { StoredCommand } from './command-record';

export interface LaneRunner {
  /** Look for due commands now rather than at the next poll. */
  wake(): void;
  /** Stops leasing; waits (bounded) for attempts in flight so their outcome is recorded. */
  stop(timeoutMs: number): Promise<void>;
}

/**
 * One lane of the worker: up to `slots` commands of the lane in flight, each on its own. A
 * slot is filled again as soon as its attempt ends, so one slow attempt (a gateway holding a
 * call for its whole time-out) holds only its own slot, never a whole round.
 */
export function startLane(
  deps: CommandDeps,
  lane: CommandLane,
  options: { pollMs: number; slots: number; work: (command: StoredCommand) => Promise<void> },
): LaneRunner {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let leasing: Promise<void> | null = null;
  // A wake during a lease: look again at once when it ends, the new command may have come too late for it.
  let wokenWhileLeasing = false;
  const inFlight = new Set<Promise<void>>();

  const fill = async (): Promise<void> => {
    const room = options.slots - inFlight.size;
    if (room <= 0) return;
    const now = deps.now().getTime();
    if ((await deps.store.countDue(now, lane)) === 0) return;
    const due = await deps.store.leaseDue(deps.owner, now, now + leaseMs(deps.settings), room, lane);
    for (const command of due) {
      const attempt: Promise<void> = options.work(command).finally(() => {
        inFlight.delete(attempt);
        wake();
      });
      inFlight.add(attempt);
    }
  };

  const schedule = (ms: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(lease, ms);
  };

  const lease = () => {
    timer = null;
    if (stopped) return;
    wokenWhileLeasing = false;
    leasing = fill()
      .catch((error: Error) => deps.logger.warn('command worker pass failed', { lane, error: error.message }))
      .then(() => {
        leasing = null;
        if (!stopped) schedule(wokenWhileLeasing ? 0 : options.pollMs);
      });
  };

  const wake = () => {
    if (stopped) return;
    if (leasing) wokenWhileLeasing = true;
    else schedule(0);
  };

  schedule(0);
  return {
    wake,
    async stop(timeoutMs) {
      stopped = true;
      if (timer) clearTimeout(timer);
      // A lease in progress may still start attempts: waited for first, then every attempt.
      const settled = (async () => {
        await leasing;
        await Promise.all(inFlight);
      })();
      await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    },
  };
}
