import { mallScope } from '../api/mall-scope';
import { cancelClaim, paymentLeft } from '../ledger/fold/payment-left';
import type { OrderRecord, Payment } from '../ledger/fold/order-record';
import { maskSensitive } from '../observability/mask';
import type { ConsoleDeps } from './console-deps';
import type { Session } from './sessions';

/** The prefix of the shopTransactionId of every cancel sent from the console's order page. */
export const CONSOLE_COMMAND_PREFIX = 'console';

/** How this service can cancel a payment: wallet-b (full or partial), VAN (the whole approval), or not at all. */
export type CancelRoute = 'wallet-b' | 'van' | null;

/** A cancel this service sent for the payment, and whether the gateway's event 20 has confirmed it. */
export interface RequestedCancel {
  shopTransactionId: string;
  state: string;
  /** Minor units; null for a full cancel (whatever was left). */
  amount: number | null;
  confirmed: boolean;
  /** When the command was created; null when the command is no longer kept. */
  requestedAt: string | null;
  /** Where it was asked: the console's order page, or the internal API (the shop's system). */
  requestedVia: 'console' | 'api';
  /** The console operator who asked, as the audit names them; null through the API, or when no audit row is found. */
  requestedBy: string | null;
}

/** One payment of an order as its page shows it: what the gateway said, what is left of it, how it can be cancelled. */
export interface PaymentView {
  payment: Payment;
  /** The notification's own fields (masked), null once retention removed them. */
  said: GatewaySaid | null;
  route: CancelRoute;
  /** The order's mall is one this service serves (MALL_IDS): the console cancels nothing for another. */
  served: boolean;
  /** What is left to cancel: the payment less its confirmed cancels and the requests still open. */
  left: number;
  requests: RequestedCancel[];
}

/** What the gateway said about a payment, masked, every value as text. */
export interface GatewaySaid {
  notiType: string;
  issuer: string | null;
  approvalNo: string | null;
  installmentMonth: string | null;
  card: string | null;
  method: string | null;
  messages: string[];
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** The notification's fields a payment's view shows: only these are masked, whatever else the notification carries. */
const SAID_FIELDS = [
  'resCd', 'res_cd', 'resMsg', 'res_msg', 'statusCode', 'statusMessage', 'cashReceiptResCd', 'cashReceiptResMsg',
  'issuerName', 'bankName', 'issuerCode', 'bankCode', 'issuer_cd', 'approvalNo', 'installmentMonth', 'cardMaskNo', 'cardNo',
  'payMethodTypeCode', 'pay_type',
] as const;

/**
 * The fields a support call asks about, picked from the stored notification and masked as the logs
 * are. Picked before masking: masking is field by field, so the shown fields read the same, and a
 * notification of hundreds of fields costs no more than one of twenty.
 */
function gatewaySaid(notiType: string, data: Record<string, unknown>): GatewaySaid {
  const picked = Object.fromEntries(SAID_FIELDS.filter((name) => Object.hasOwn(data, name)).map((name) => [name, data[name]]));
  const masked = maskSensitive(picked) as Record<string, unknown>;
  const pair = (name: unknown, code: unknown) => [text(name), text(code)].filter(Boolean).join(' ') || null;
  const messages = [
    [masked.resCd ?? masked.res_cd, masked.resMsg ?? masked.res_msg],
    [masked.statusCode, masked.statusMessage],
    [masked.cashReceiptResCd, masked.cashReceiptResMsg],
  ].map(([code, message]) => [text(code), text(message)].filter(Boolean).join(' ')).filter((line) => line !== '');
  return {
    notiType,
    issuer: pair(masked.issuerName ?? masked.bankName, masked.issuerCode ?? masked.bankCode ?? masked.issuer_cd),
    approvalNo: text(masked.approvalNo),
    installmentMonth: text(masked.installmentMonth),
    card: text(masked.cardMaskNo) ?? text(masked.cardNo),
    method: text(masked.payMethodTypeCode) ?? text(masked.pay_type),
    messages,
  };
}

/**
 * A wallet-b payment is one of an order whose trade this service created through wallet-a (or
 * whose expectation says wallet): wallet-b cancels what wallet-a sold. A VAN payment is one the
 * gateway notified as event 70 (the VAN's UnionPay approval). Anything else is the portal's.
 */
function routeOf(order: OrderRecord, notiType: string | null): CancelRoute {
  if (notiType === '70') return 'van';
  if (order.expected?.source === 'wallet-a' || order.expected?.method === 'wallet') return 'wallet-b';
  return null;
}

/**
 * `payments` of the order (a page of them: payment-page.ts) with what the gateway said, what is
 * left of each and the cancels requested for it. Reads one notification and the open cancels per
 * payment given, and the commands of those payments' requests only, so the work follows the page,
 * never the order's whole history.
 */
export async function paymentViews(deps: Pick<ConsoleDeps, 'store' | 'commands' | 'config'>, order: OrderRecord, payments: readonly Payment[]): Promise<PaymentView[]> {
  const confirmedCancels = new Set(order.cancels.map((c) => c.cancelPgCno).filter((id): id is string => id !== null));
  const shown = new Set(payments.map((p) => p.pgCno));
  const commands = new Map(await Promise.all(order.cancellationsRequested.filter((c) => shown.has(c.pgCno)).map(async (c) =>
    [c.shopTransactionId, (await deps.commands?.getCommand(c.shopTransactionId)) ?? null] as const)));
  const served = mallScope(deps.config.MALL_IDS).serves(order.mallId);
  const requesters = await consoleRequesters(deps, [...commands.values()].filter((c): c is NonNullable<typeof c> => c !== null));
  return Promise.all(payments.map(async (payment) => {
    const detail = await deps.store.getEvent(payment.eventId);
    const notiType = detail?.notiType ?? null;
    const said = detail && detail.prunedAt === null ? gatewaySaid(detail.notiType, detail.event.data) : null;
    // What is left counts the cancels as recorded, not only those the ledger has applied yet.
    const open = (await deps.commands?.openCancels(payment.pgCno)) ?? [];
    const requests = await Promise.all(order.cancellationsRequested.filter((c) => c.pgCno === payment.pgCno).map(async (c): Promise<RequestedCancel> => {
      const command = commands.get(c.shopTransactionId) ?? null;
      const cancelPgCno = text(command?.response?.cancelPgCno);
      const amount = command ? (cancelClaim(command.command, command.request)?.amount ?? null) : null;
      return {
        shopTransactionId: c.shopTransactionId, state: command?.state ?? c.state, amount, confirmed: cancelPgCno !== null && confirmedCancels.has(cancelPgCno),
        requestedAt: command?.createdAt ?? null, requestedVia: viaOf(c.shopTransactionId),
        requestedBy: requesters.get(c.shopTransactionId) ?? null,
      };
    }));
    const listed = new Set(requests.map((r) => r.shopTransactionId));
    for (const c of open) {
      if (!listed.has(c.shopTransactionId)) requests.push({ shopTransactionId: c.shopTransactionId, state: c.state, amount: c.amount, confirmed: false, requestedAt: null, requestedVia: viaOf(c.shopTransactionId), requestedBy: null });
    }
    const left = paymentLeft(order, payment.pgCno, open) ?? 0;
    return { payment, said, route: routeOf(order, notiType), served, left, requests };
  }));
}

/** How long after its command the console's audit row of a cancel is looked for (the same request writes both). */
const AUDIT_WINDOW_MS = 10 * 60_000;
/** The audit rows read for one order page: its console cancels' rows, newest first, within their window. */
const AUDIT_ROWS = 500;

const viaOf = (shopTransactionId: string): 'console' | 'api' => (shopTransactionId.startsWith(CONSOLE_COMMAND_PREFIX) ? 'console' : 'api');

/**
 * Who asked for each of the order's console cancels, by command: the console names its commands
 * `console…` and audits each with the operator; any other command came through the internal API
 * (the shop's system), which has no person to name. One read of the audit for the whole page.
 */
async function consoleRequesters(deps: Pick<ConsoleDeps, 'store'>, commands: ReadonlyArray<{ shopTransactionId: string; createdAt: string }>): Promise<Map<string, string>> {
  const asked = commands.filter((c) => viaOf(c.shopTransactionId) === 'console');
  const found = new Map<string, string>();
  if (asked.length === 0) return found;
  const times = asked.map((c) => Date.parse(c.createdAt));
  const from = new Date(Math.min(...times) - 1000).toISOString();
  const to = new Date(Math.max(...times) + AUDIT_WINDOW_MS).toISOString();
  const { rows } = await deps.store.searchAudit({ action: 'requested cancel', from, to, limit: AUDIT_ROWS });
  for (const row of rows) {
    const id = /^command (\S+) /.exec(row.detail ?? '')?.[1];
    if (id !== undefined && !found.has(id) && asked.some((c) => c.shopTransactionId === id)) found.set(id, row.actor);
  }
  return found;
}

/**
 * What the bank said of each refund that could not be paid out: an event 51's `resMsg` beside its
 * `resCd` (the ledger keeps the code only: the text may name an account). By event id, as stored,
 * for the page to mask; none once retention removed the notification.
 */
export async function bankMessages(deps: Pick<ConsoleDeps, 'store'>, order: OrderRecord): Promise<Record<string, string>> {
  const ids = order.discrepancies.filter((d) => d.kind === 'refund_transfer_failed').flatMap((d) => d.eventIds);
  const messages: Record<string, string> = {};
  // Bounded as the page's payments are: an order of many failed refunds shows the first ones' messages.
  for (const id of [...new Set(ids)].slice(0, BANK_MESSAGES_READ)) {
    const detail = await deps.store.getEvent(id);
    const message = detail && detail.prunedAt === null ? text(detail.event.resultMessage) : null;
    if (message !== null) messages[id] = message;
  }
  return messages;
}

/** The failed refunds whose bank message one order page reads (one notification each). */
const BANK_MESSAGES_READ = 30;

/** The one payment `pgCno` of the order, as its cancel confirmation needs it; null when the order has none by that id. */
export async function paymentView(deps: Pick<ConsoleDeps, 'store' | 'commands' | 'config'>, order: OrderRecord, pgCno: string): Promise<PaymentView | null> {
  const payment = order.payments.find((p) => p.pgCno === pgCno);
  return payment ? ((await paymentViews(deps, order, [payment]))[0] ?? null) : null;
}

/** The admin, or an operator given the right by name (`--can-cancel`); read from the operator record at each request. */
export async function mayCancel(deps: Pick<ConsoleDeps, 'store'>, session: Pick<Session, 'operator' | 'role'>): Promise<boolean> {
  if (session.role === 'admin') return true;
  if (session.role !== 'operator') return false;
  return (await deps.store.findOperator(session.operator))?.canCancel === true;
}
