import { classifyAnswer, classifyFailure, type Classified } from '../gateway/classify-answer';
import type { AttemptPolicy } from './attempt-policy';
import { resendDelay } from './resend-delay';
import { commandEvent } from './command-event';
import { isFinal, publicRecord, type CommandState, type StoredCommand } from './command-record';
import { leaseMs, type CommandDeps } from './command-deps';
import { StoreUnavailable } from '../store/store';
import { endGatewayCallSpan, startGatewayCallSpan } from '../gateway/gateway-call-span';

/**
 * One attempt of a command this process holds the lease on: marked begun (durably, before a
 * byte is sent), sent with the request exactly as stored, classified, and recorded with the
 * state it leads to. Resolves with the command as stored afterwards.
 */
export async function runAttempt(deps: CommandDeps, command: StoredCommand, policy: AttemptPolicy): Promise<StoredCommand> {
  const { store, gateway, logger, metrics, owner } = deps;
  const id = command.shopTransactionId;
  // A base URL unset since the command was stored: nothing is begun, the worker tries again after the lease.
  gateway.assertConfigured(policy.operation);
  const startedAt = deps.now();
  const n = await store.beginAttempt({
    shopTransactionId: id,
    owner,
    operation: policy.operation,
    request: command.request,
    state: policy.inFlightState ?? command.state,
    at: startedAt.toISOString(),
    leaseUntil: startedAt.getTime() + leaseMs(deps.settings),
  });
  if (n === null) {
    logger.warn('command lease lost; another replica works it', { shopTransactionId: id, command: command.command });
    return (await store.getCommand(id)) ?? command;
  }

  let httpStatus: number | null = null;
  let outcome: Classified;
  const span = deps.tracing ? startGatewayCallSpan(deps.tracing, policy.operation, n, (await store.traceContextOf?.(id).catch(() => null)) ?? null, deps.traceParent) : null;
  try {
    const answer = await gateway.send(policy.operation, command.request);
    httpStatus = answer.httpStatus;
    outcome = classifyAnswer(policy.operation, command.request, answer);
  } catch (error) {
    outcome = classifyFailure(error);
    httpStatus = outcome.httpStatus ?? null;
  }
  if (span) endGatewayCallSpan(span, outcome.verdict, httpStatus);
  metrics.commandAttempts.inc({ operation: policy.operation, verdict: outcome.verdict });

  const spent = policy.spent(command) + 1;
  const state = nextState(policy, outcome, spent);
  const finishedAt = deps.now();
  const delay = policy.immediate?.includes(state) ? 0 : resendDelay(spent, deps.settings.retryBaseMs, deps.random);
  const response = outcome.response && policy.shapeResponse ? policy.shapeResponse(outcome.response) : outcome.response;
  const finalRecord = isFinal(state)
    ? publicRecord({ ...command, state, attempts: n, response: response ?? command.response, lastError: outcome.error, updatedAt: finishedAt.toISOString() })
    : null;
  const eventType = finalRecord ? policy.eventType?.(state) ?? null : null;

  const stored = await recordOutcome(deps, () => store.finishAttempt({
    shopTransactionId: id,
    owner,
    n,
    at: finishedAt.toISOString(),
    httpStatus,
    response,
    answerText: outcome.answerText ?? null,
    error: outcome.error,
    state,
    nextAttemptAt: finishedAt.getTime() + delay,
    event: eventType && finalRecord ? commandEvent(eventType, finalRecord) : null,
  }));
  report(deps, stored, policy, outcome, n);
  // Due at once (a net-cancel): the worker need not wait for its next poll.
  if (policy.immediate?.includes(stored.state)) deps.wakeWorker?.();
  return stored;
}

/**
 * The outcome of a send must not be lost to a brief store outage: an approval answered but not
 * recorded would be found "in doubt" after its lease and net-cancelled. Tried for a few seconds,
 * well inside the lease's margin, before giving up.
 */
async function recordOutcome<T>(deps: CommandDeps, write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof StoreUnavailable) || attempt >= RECORD_TRIES) throw error;
      deps.logger.warn('could not record a gateway answer yet; retrying', { attempt, error: error.message });
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
  }
}

const RECORD_TRIES = 6;

function nextState(policy: AttemptPolicy, outcome: Classified, spent: number): CommandState {
  if (outcome.verdict === 'success') return policy.onSuccess;
  if (outcome.verdict === 'final') return policy.onFinal;
  return spent >= policy.budget ? policy.onExhausted : policy.onUnknown;
}

function report(deps: CommandDeps, command: StoredCommand, policy: AttemptPolicy, outcome: Classified, n: number): void {
  const fields = { shopTransactionId: command.shopTransactionId, command: command.command, operation: policy.operation, attempt: n, state: command.state, error: outcome.error };
  if (command.state === 'net_cancel_failed') {
    deps.logger.error('net-cancel failed: an approval may stand at the gateway; reconcile it by hand', fields);
  } else if (outcome.verdict === 'unknown') {
    deps.logger.warn('gateway attempt without a usable answer', fields);
  } else {
    deps.logger.info('gateway attempt answered', fields);
  }
  if (isFinal(command.state)) deps.metrics.commandsFinished.inc({ kind: command.command, state: command.state });
  if (policy.operation === 'van.approve' && command.state === 'net_cancelling') deps.metrics.netCancels.inc({ outcome: 'started' });
  if (policy.operation === 'van.net-cancel' && isFinal(command.state)) deps.metrics.netCancels.inc({ outcome: command.state });
}
