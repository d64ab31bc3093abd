import { GatewayError, GatewayUnparsableAnswer } from './gateway-errors';
import type { GatewayAnswer } from './gateway-client';
import type { Operation } from './operations';

/**
 * What one attempt means, decided once here: `success`, `final` (the gateway said no; resending
 * cannot change it) or `unknown` (no usable answer, or a code the gateway documents as "try
 * again": the request may have been processed, so only a resend with the same key, or a
 * net-cancel for an approval, is safe).
 */
export type Verdict = 'success' | 'final' | 'unknown';

export interface Classified {
  verdict: Verdict;
  response: Record<string, unknown> | null;
  error: string | null;
  /** What came back when it was not the gateway's JSON, kept short for the operator. */
  answerText?: string;
  httpStatus?: number;
}

const ANSWER_TEXT_LIMIT = 1000;

/** The wallet-b cancellation codes the gateway asks to be resent. */
const WALLET_B_RETRY = /^A21\d$/;

export function classifyAnswer(operation: Operation, request: Record<string, unknown>, answer: GatewayAnswer): Classified {
  const { body } = answer;
  const code = body.resCd;
  if (operation === 'wallet-b.cancel' && WALLET_B_RETRY.test(code)) {
    return { verdict: 'unknown', response: body, error: `gateway asked for a resend (resCd ${code})` };
  }
  if (code !== '0000') return { verdict: 'final', response: body, error: `gateway refused (resCd ${code})` };
  if (operation === 'wallet-a.create' && body.shopTransactionId !== undefined && body.shopTransactionId !== request.shopTransactionId) {
    return { verdict: 'final', response: body, error: "the answer's shopTransactionId differs from the request's" };
  }
  return { verdict: 'success', response: body, error: null };
}

/** A failure of the call itself (time-out, reset, unparsable): outcome unknown. Anything else is a bug and rethrown. */
export function classifyFailure(error: unknown): Classified {
  if (error instanceof GatewayUnparsableAnswer) {
    return { verdict: 'unknown', response: null, error: error.message, httpStatus: error.httpStatus, answerText: error.bodyText.slice(0, ANSWER_TEXT_LIMIT) };
  }
  if (error instanceof GatewayError) return { verdict: 'unknown', response: null, error: error.message };
  throw error;
}
