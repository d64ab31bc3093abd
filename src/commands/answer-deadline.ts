import type { CommandSettings } from './command-deps';

/**
 * What a POST may take beyond one attempt's time-out: the command's durable writes before
 * and after the send. A call still working then is answered 202 with where to look, so no
 * caller waits on resends, a slow store or another command.
 */
export const ANSWER_MARGIN_MS = 2_000;

/** The epoch ms by which a POST that starts now answers, on the wall clock (never a test's shifted one). */
export function answerDeadline(settings: CommandSettings, startedAt = Date.now()): number {
  return startedAt + settings.timeoutMs + ANSWER_MARGIN_MS;
}

/** The work's value if it settles by `deadline`, else undefined; a rejection before it is rethrown. */
export async function settledBy<T>(work: Promise<T>, deadline: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()), undefined)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
