import type { InboxRow } from './inbox-row';
import { procedureNamed, type WriteName } from '../index';
import type { Procedure } from '../procedure';
import { recordNotifications } from './record-notifications';

/** One write as a driver receives it: a procedure's name and its arguments. */
export interface WriteRequest {
  name: WriteName;
  args: unknown[];
}

/** The procedure a write request names, started with its arguments. */
function startWrite({ name, args }: WriteRequest): Procedure<unknown> {
  const procedure = procedureNamed(name);
  if (!procedure) throw new Error(`no store procedure named ${name}`);
  return procedure(...args);
}

/**
 * The writes of one group-commit transaction as one procedure, their results in order. A run of
 * consecutive `recordNotification` writes runs as one `recordNotifications`: a few statements for
 * the whole run instead of two or three per notification, which matters where every statement is
 * a round trip (PostgreSQL). Every other write runs as asked, in order.
 */
export function* writeBatch(requests: readonly WriteRequest[]): Procedure<unknown[]> {
  const results: unknown[] = [];
  let i = 0;
  while (i < requests.length) {
    let end = i;
    while (end < requests.length && requests[end]!.name === 'recordNotification') end += 1;
    if (end > i) {
      results.push(...(yield* recordNotifications(requests.slice(i, end).map((request) => request.args[0] as InboxRow))));
      i = end;
      continue;
    }
    results.push(yield* startWrite(requests[i]!));
    i += 1;
  }
  return results;
}
