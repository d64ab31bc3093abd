/** What the sandbox's gateway remembers between calls: trades, cancellations, VAN approvals. */
export interface Trade {
  token: string;
  mallId: string;
  shopTransactionId: string;
  shopOrderNo: string;
  goodsName: string;
  amount: number;
  currency: string;
  tradeType: 'mweb' | 'native';
  notifyUrl: string | null;
  returnUrl: string | null;
  state: 'created' | 'paid' | 'declined';
  /** Assigned when the customer pays: notification 10 and every cancellation name it. */
  pgCno: string | null;
  remaining: number;
  answer: GatewayAnswer;
  createdAt: string;
}

export interface Revision {
  shopTransactionId: string;
  cancelReqDate: string;
  answer: GatewayAnswer;
}

export interface VanApproval {
  shopTransactionId: string;
  mallId: string;
  pgCno: string;
  state: 'approved' | 'cancelled' | 'net-cancelled';
  answer: GatewayAnswer;
}

/** The gateway's answers are flat JSON with `resCd` and `resMsg` first. */
export type GatewayAnswer = { resCd: string; resMsg: string } & Record<string, unknown>;

export interface Ledger {
  trades: Map<string, Trade>;
  tradeByTransaction: Map<string, Trade>;
  tradeByPgCno: Map<string, Trade>;
  revisions: Map<string, Revision>;
  vanApprovals: Map<string, VanApproval>;
  vanCancels: Map<string, GatewayAnswer>;
}

export function createLedger(): Ledger {
  return {
    trades: new Map(),
    tradeByTransaction: new Map(),
    tradeByPgCno: new Map(),
    revisions: new Map(),
    vanApprovals: new Map(),
    vanCancels: new Map(),
  };
}

/** A string field of a caller's JSON body, or undefined when absent or not a non-empty string. */
export function text(body: Record<string, unknown>, ...path: string[]): string | undefined {
  let value: unknown = body;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** An error answer as the gateway words it, with the detail URL-encoded the way it sends `resDetailMsg`. */
export function refusal(resCd: string, resMsg: string, detail: string, ids: Record<string, unknown> = {}): GatewayAnswer {
  return { resCd, resMsg, ...ids, resDetailMsg: encodeURIComponent(detail) };
}

/** Result codes the sandbox answers beyond 0000; the scenario `code` can answer any other. */
export const SANDBOX_CODES: Record<string, string> = {
  E101: '필수 항목 누락',
  E102: '인증값 불일치',
  E103: '취소요청일자 불일치',
  E201: '원거래 없음',
  E202: '취소 가능 금액 초과',
  E203: '결제되지 않은 거래',
  A213: '일시적인 오류입니다. 잠시 후 다시 시도해 주세요',
};
