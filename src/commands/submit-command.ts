import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../sha256-hex';
import type { AttemptPolicy } from './attempt-policy';
import { isFinal, type CommandKind, type StoredCommand } from './command-record';
import type { NewCommand } from '../store/command-types';
import { cancelClaim } from '../ledger/fold/payment-left';
import { CancelExceedsPayment } from './cancel-exceeds-payment';
import { leaseMs, type CommandDeps } from './command-deps';
import { runAttempt } from './run-attempt';
import { storedTraceContextOf } from '../gateway/gateway-call-span';
import { answerDeadline, settledBy } from './answer-deadline';

/** The same shopTransactionId with another body: the caller reused a key for a different call. */
export class IdempotencyConflict extends Error {
  override readonly name = 'IdempotencyConflict';
  constructor(readonly shopTransactionId: string, readonly existing: StoredCommand) {
    super(`shopTransactionId ${shopTransactionId} was already used with a different body; use a new shopTransactionId for a new call`);
  }
}

/** The idempotency key the caller gave, or a new one: resends reuse it, so the gateway can tell them apart from new calls. */
export function shopTransactionIdOf(body: Record<string, unknown>): string {
  return typeof body.shopTransactionId === 'string' && body.shopTransactionId ? body.shopTransactionId : randomUUID().replaceAll('-', '');
}

/**
 * Records the command durably (the first byte is sent only after), then runs its first
 * attempt, and resolves when it ends or at `answerBy` (epoch ms), whichever comes first: an
 * attempt still running then goes on, is recorded when it ends, and the caller gets the
 * command as stored so far. A key seen before returns the stored command and sends nothing.
 */
export async function submitCommand(
  deps: CommandDeps,
  kind: CommandKind,
  body: Record<string, unknown>,
  request: Record<string, unknown> & { shopTransactionId: string; mallId: string },
  policy: AttemptPolicy,
  answerBy = answerDeadline(deps.settings),
): Promise<{ command: StoredCommand; created: boolean }> {
  const now = deps.now();
  const bodyHash = hashBody({ ...body, shopTransactionId: request.shopTransactionId });
  const { created, command } = await record(deps, {
    kind,
    shopTransactionId: request.shopTransactionId,
    mallId: request.mallId,
    bodyHash,
    request,
    state: 'pending',
    at: now.toISOString(),
    owner: deps.owner,
    leaseUntil: now.getTime() + leaseMs(deps.settings),
    ...(deps.tracing ? { traceContext: storedTraceContextOf(deps.tracing, deps.traceParent) } : {}),
  });
  if (!created) {
    if (command.bodyHash !== bodyHash || command.command !== kind) throw new IdempotencyConflict(command.shopTransactionId, command);
    return { command, created };
  }
  const attempt = runAttempt(deps, command, policy);
  const ended = await settledBy(attempt, answerBy);
  if (ended) return { command: ended, created };
  deps.inFlight.track(attempt, command.shopTransactionId);
  return { command: (await deps.store.getCommand(command.shopTransactionId)) ?? command, created };
}

/**
 * A cancel is recorded only when it fits in what is left of its payment (checked in the same
 * transaction), once the ledger has applied what was stored before it; anything else as it comes.
 */
async function record(deps: CommandDeps, command: NewCommand): Promise<{ created: boolean; command: StoredCommand }> {
  if (cancelClaim(command.kind, command.request) === null) return deps.store.createCommand(command);
  await deps.ledgerCaughtUp?.();
  const outcome = await deps.store.createCancelCommand(command);
  if ('refusal' in outcome) throw new CancelExceedsPayment(outcome.refusal);
  return outcome;
}

/** Waits while the worker resends, until the command is final or `answerBy` (epoch ms) has come. */
export async function waitUntilFinal(deps: CommandDeps, command: StoredCommand, answerBy: number): Promise<StoredCommand> {
  const step = Math.min(100, deps.settings.retryBaseMs);
  let current = command;
  while (!isFinal(current.state)) {
    const left = answerBy - Date.now();
    if (left <= 0) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(step, left)));
    current = (await deps.store.getCommand(command.shopTransactionId)) ?? current;
  }
  return current;
}

function hashBody(body: unknown): string {
  return sha256Hex(canonicalJson(body));
}

/** Key order must not make the same body look different. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
