import { z } from 'zod';

/** The gateway operations a scenario can aim at, named as the timeline shows them. */
export const CALL_OPERATIONS = ['wallet-a.create', 'wallet-b.revise', 'van.reqAprv', 'van.reqCancel', 'van.reqRtran'] as const;
export type CallOperation = (typeof CALL_OPERATIONS)[number];

/**
 * What can go wrong on a call: `timeout` (alias `hang`) does the work but never answers, as
 * when the gateway's reply is lost; `reset` does the work and drops the connection; `code`
 * answers that `resCd` without doing anything (e.g. `A213`, which the caller must resend).
 */
export type CallScenario = { kind: 'timeout' } | { kind: 'reset' } | { kind: 'code'; code: string };

/**
 * What can go wrong with a notification: `reply-lost` resends it once after its 0000 ack (the
 * gateway never saw the ack); `duplicates` sends `copies` at the same moment. Three more leave the
 * gateway's own record (its portal's lists) right and the notification wrong, for a reconciliation
 * to find: `lost` never reaches the receiver (as if every try failed), `garbled` carries a `resCd`
 * of five characters, which the receiver refuses while the gateway keeps its trade, and
 * `altered-amount` says `amount` where the gateway made another.
 */
export type NotifyScenario =
  | { kind: 'reply-lost' }
  | { kind: 'duplicates'; copies: number }
  | { kind: 'lost' }
  | { kind: 'garbled' }
  | { kind: 'altered-amount'; amount: number };

/**
 * What the gateway can get wrong about the money, so a merchant rehearses the payment ledger's
 * alarms before going live. On `pay` (the next Pay on a payment page): `other-amount`
 * approves and notifies `amount` instead of the trade's (what a tampered payment window looks
 * like); `pay-twice` approves twice, two pgCnos for one order (a retried payment). On `cancel`
 * (the next wallet-b cancellation): `wrong-remainder` answers and notifies `remainAmount` (by
 * default one more than is really left); `refund-fails` follows the cancel's event 20 with an
 * event 51, the refund's payout failed.
 */
export type PayScenario = { kind: 'other-amount'; amount: number } | { kind: 'pay-twice' };
export type CancelScenario = { kind: 'wrong-remainder'; remainAmount?: number } | { kind: 'refund-fails' };
export const MONEY_OPERATIONS = ['pay', 'cancel'] as const;

const callScenario = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum(['timeout', 'hang']).transform(() => 'timeout' as const) }),
  z.object({ kind: z.literal('reset') }),
  z.object({ kind: z.literal('code'), code: z.string().regex(/^[A-Z0-9]{4}$/, 'a 4-character resCd such as A213') }),
]);
const notifyScenario = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('reply-lost') }),
  z.object({ kind: z.literal('duplicates'), copies: z.coerce.number().int().min(2).max(20).default(3) }),
  z.object({ kind: z.literal('lost') }),
  z.object({ kind: z.literal('garbled') }),
  z.object({ kind: z.literal('altered-amount'), amount: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }),
]);

const times = z.coerce.number().int().min(1).max(100).default(1);
const payScenario = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('other-amount'), amount: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }),
  z.object({ kind: z.literal('pay-twice') }),
]);
const cancelScenario = z.discriminatedUnion('kind', [
  // A form's empty field means "the default": one more than what is left.
  z.object({ kind: z.literal('wrong-remainder'), remainAmount: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional()) }),
  z.object({ kind: z.literal('refund-fails') }),
]);

/** The body of `POST /sandbox/scenarios` (JSON or the page's form). */
export const scenarioRequest = z.union([
  z.object({ operation: z.literal('pay'), times }).and(payScenario),
  z.object({ operation: z.literal('cancel'), times }).and(cancelScenario),
  z.object({ operation: z.enum(CALL_OPERATIONS), times: z.coerce.number().int().min(1).max(100).default(1) }).and(callScenario),
  z.object({ operation: z.literal('notify'), times: z.coerce.number().int().min(1).max(100).default(1) }).and(notifyScenario),
]);
export type ScenarioRequest = z.infer<typeof scenarioRequest>;

export type AnyScenario = CallScenario | NotifyScenario | PayScenario | CancelScenario;

export interface PendingScenario {
  id: number;
  operation: CallOperation | 'notify' | (typeof MONEY_OPERATIONS)[number];
  scenario: AnyScenario;
  remaining: number;
}

export interface ScenarioBook {
  add(request: ScenarioRequest): PendingScenario;
  /** The scenario for the next call of `operation`, counted down; undefined when none is set. */
  takeCall(operation: CallOperation): CallScenario | undefined;
  takeNotify(): NotifyScenario | undefined;
  takePay(): PayScenario | undefined;
  takeCancel(): CancelScenario | undefined;
  pending(): readonly PendingScenario[];
  clear(): void;
}

export function createScenarioBook(): ScenarioBook {
  let list: PendingScenario[] = [];
  let nextId = 0;
  const take = (operation: PendingScenario['operation']) => {
    const found = list.find((p) => p.operation === operation);
    if (!found) return undefined;
    found.remaining -= 1;
    if (found.remaining === 0) list = list.filter((p) => p !== found);
    return found.scenario;
  };
  return {
    add(request) {
      const { operation, times, ...scenario } = request;
      const entry: PendingScenario = { id: ++nextId, operation, remaining: times, scenario: scenario as AnyScenario };
      list.push(entry);
      return entry;
    },
    takeCall: (operation) => take(operation) as CallScenario | undefined,
    takeNotify: () => take('notify') as NotifyScenario | undefined,
    takePay: () => take('pay') as PayScenario | undefined,
    takeCancel: () => take('cancel') as CancelScenario | undefined,
    pending: () => list,
    clear() {
      list = [];
    },
  };
}

/**
 * A scenario for one call only, from the `X-Sandbox-Scenario` header or `?sandbox=` query:
 * `timeout`, `hang`, `reset` or `code=A213`. An unreadable value is an error the tester sees.
 */
export function parseCallScenario(text: string): CallScenario {
  const [kind, code] = text.trim().split('=');
  const parsed = callScenario.safeParse(code === undefined ? { kind } : { kind, code });
  if (!parsed.success) throw new Error(`unknown sandbox scenario "${text}": use timeout, hang, reset or code=A213`);
  return parsed.data;
}

export function describeScenario(scenario: AnyScenario): string {
  switch (scenario.kind) {
    case 'other-amount':
      return `approve ${scenario.amount} instead of the trade's amount`;
    case 'pay-twice':
      return 'approve twice (two pgCnos)';
    case 'wrong-remainder':
      return `report remainder ${scenario.remainAmount ?? 'one more than left'}`;
    case 'refund-fails':
      return "the refund's payout fails (event 51)";
    case 'code':
      return `answer ${scenario.code}`;
    case 'duplicates':
      return `${scenario.copies} copies at once`;
    case 'reply-lost':
      return 'resend after the ack (reply lost)';
    case 'lost':
      return 'never reaches the receiver (the trade stands)';
    case 'garbled':
      return 'a body the receiver refuses (the trade stands)';
    case 'altered-amount':
      return `notify ${scenario.amount} where the gateway made another amount`;
    default:
      return scenario.kind;
  }
}
