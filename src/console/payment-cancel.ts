import { mallScope } from '../api/mall-scope';
import { cancelClaim, paymentLeft } from '../ledger/payment-left';
import type { OrderRecord, Payment } from '../ledger/order-record';
import { maskSensitive } from '../observability/mask';
import type { ConsoleDeps } from './console-deps';
import type { Session } from './sessions';

/** How this service can cancel a payment: wallet-b (full or partial), VAN (the whole approval), or not at all. */
export type CancelRoute = 'wallet-b' | 'van' | null;

/** A cancel this service sent for the payment, and whether the gateway's event 20 has confirmed it. */
export interface RequestedCancel {
  shopTransactionId: string;
  state: string;
  /** Minor units; null for a full cancel (whatever was left). */
  amount: number | null;
  confirmed: boolean;
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
  return Promise.all(payments.map(async (payment) => {
    const detail = await deps.store.getEvent(payment.eventId);
    const notiType = detail?.notiType ?? null;
    const said = detail && detail.prunedAt === null ? gatewaySaid(detail.notiType, detail.event.data) : null;
    // What is left counts the cancels as recorded, not only those the ledger has applied yet.
    const open = (await deps.commands?.openCancels(payment.pgCno)) ?? [];
    const requests = order.cancellationsRequested.filter((c) => c.pgCno === payment.pgCno).map((c): RequestedCancel => {
      const command = commands.get(c.shopTransactionId) ?? null;
      const cancelPgCno = text(command?.response?.cancelPgCno);
      const amount = command ? (cancelClaim(command.command, command.request)?.amount ?? null) : null;
      return { shopTransactionId: c.shopTransactionId, state: command?.state ?? c.state, amount, confirmed: cancelPgCno !== null && confirmedCancels.has(cancelPgCno) };
    });
    const listed = new Set(requests.map((r) => r.shopTransactionId));
    for (const c of open) {
      if (!listed.has(c.shopTransactionId)) requests.push({ shopTransactionId: c.shopTransactionId, state: c.state, amount: c.amount, confirmed: false });
    }
    const left = paymentLeft(order, payment.pgCno, open) ?? 0;
    return { payment, said, route: routeOf(order, notiType), served, left, requests };
  }));
}

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
