import type { AttemptPolicy } from './attempt-policy';
import { spentSinceBudget } from './attempt-policy';
import type { StoredCommand } from './command-record';
import type { CommandDeps, CommandSettings } from './command-deps';
import { answerDeadline } from './answer-deadline';
import { shopTransactionIdOf, submitCommand, waitUntilFinal } from './submit-command';

/** A time-out or network error is resent up to 3 times: 4 attempts in all. */
const TRADE_ATTEMPTS = 4;

export class MissingNotifyUrl extends Error {
  override readonly name = 'MissingNotifyUrl';
  constructor() {
    super('notifyUrl is required when PUBLIC_NOTIFY_URL is not set');
  }
}

/** A lower GATEWAY_MAX_ATTEMPTS still caps it: no command is sent more often than the operator allows. */
export const createTradePolicy = (settings: CommandSettings): AttemptPolicy => ({
  operation: 'wallet-a.create',
  onSuccess: 'succeeded',
  onFinal: 'failed',
  onUnknown: 'pending',
  onExhausted: 'failed',
  budget: Math.min(TRADE_ATTEMPTS, settings.maxAttempts),
  spent: spentSinceBudget,
  shapeResponse: decodeResDetailMsg,
});

/**
 * Creates a wallet-a trade and answers once it is final (the shop needs the payment page URL
 * now), or with the command still resending when the answer's deadline comes.
 */
export async function createTrade(deps: CommandDeps, body: Record<string, unknown>): Promise<{ command: StoredCommand; created: boolean }> {
  const answerBy = answerDeadline(deps.settings);
  deps.gateway.assertConfigured('wallet-a.create');
  const notifyUrl = body.notifyUrl ?? deps.settings.publicNotifyUrl;
  if (!notifyUrl) throw new MissingNotifyUrl();
  const shopTransactionId = shopTransactionIdOf(body);
  const request = { ...body, mallId: String(body.mallId), shopTransactionId, notifyUrl };
  const { command, created } = await submitCommand(deps, 'wallet-a.create', body, request, createTradePolicy(deps.settings), answerBy);
  return { command: await waitUntilFinal(deps, command, answerBy), created };
}

/** The gateway URL-encodes `resDetailMsg`; the record keeps it readable. */
function decodeResDetailMsg(body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.resDetailMsg !== 'string') return body;
  try {
    return { ...body, resDetailMsg: decodeURIComponent(body.resDetailMsg.replaceAll('+', ' ')) };
  } catch {
    return body;
  }
}
