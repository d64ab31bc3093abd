import { nextPgCno, unionPayForm } from '../simulator/notification-builders';
import { refusal, SANDBOX_CODES, text, type GatewayAnswer } from './ledger';
import { kstStamp } from '../notifications/kst-date';
import { PORTAL_METHOD } from './gateway-books';
import type { SandboxContext } from './sandbox-context';

/** UnionPay cards start with 62 (BIN range); a caller may also name the brand outright. */
function isUnionPay(body: Record<string, unknown>): boolean {
  const brand = (text(body, 'cardBrand') ?? text(body, 'cardType') ?? '').toUpperCase();
  const cardNo = (text(body, 'cardNo') ?? text(body, 'cardNumber') ?? '').replace(/\D/g, '');
  return brand === 'UNIONPAY' || brand === 'CUP' || cardNo.startsWith('62');
}

/** Not the gateway's: only the sandbox adds it, to a UnionPay approval it had nowhere to notify. */
const NO_NOTIFY_URL = 'sandbox: approved, but no notification 70 was sent: the body names no notifyUrl and the sandbox was started without --notify-url';

function required(body: Record<string, unknown>): GatewayAnswer | { mallId: string; shopTransactionId: string } {
  const mallId = text(body, 'mallId');
  const shopTransactionId = text(body, 'shopTransactionId');
  if (mallId && shopTransactionId) return { mallId, shopTransactionId };
  return refusal('E101', SANDBOX_CODES.E101!, 'missing mallId or shopTransactionId', { mallId, shopTransactionId });
}

/**
 * VAN approval (`/smpy/vanpay/reqAprv`). One approval per `shopTransactionId`: a resend gets
 * the first answer. A UnionPay card also brings the EUC-KR form notification 70.
 */
export function approveVan(ctx: SandboxContext, body: Record<string, unknown>): GatewayAnswer {
  const ids = required(body);
  if ('resCd' in ids) return ids;
  const earlier = ctx.ledger.vanApprovals.get(ids.shopTransactionId);
  if (earlier) return earlier.answer;
  const amount = text(body, 'amount') ?? text(body, 'totalAmount') ?? text(body, 'amountInfo', 'totalAmount') ?? '0';
  const pgCno = nextPgCno();
  const notifyUrl = text(body, 'notifyUrl') ?? ctx.settings.defaultNotifyUrl;
  const answer: GatewayAnswer = {
    resCd: '0000', resMsg: '정상승인', ...ids, pgCno, amount,
    approvalNo: pgCno.slice(-8), approvalDate: kstStamp(),
    // A rehearsal that waits for event 70 must not wait in silence: the answer (kept in the
    // caller's command record and the timeline) says why none comes.
    ...(isUnionPay(body) && !notifyUrl && { sandboxNotice: NO_NOTIFY_URL }),
  };
  ctx.ledger.vanApprovals.set(ids.shopTransactionId, { ...ids, pgCno, state: 'approved', answer });
  if (isUnionPay(body) && notifyUrl) {
    const orderNo = text(body, 'shopOrderNo') ?? ids.shopTransactionId;
    // The portal's lists hold what the gateway notifies: a VAN approval of another card is answered
    // to its caller and never notified, so the sandbox lists only the UnionPay ones.
    ctx.books.record({ kind: 'payment', mallId: ids.mallId, pgCno, cancelPgCno: null, shopOrderNo: orderNo, approvalNo: String(answer.approvalNo), amount: Number(amount), remainingAfter: null, method: PORTAL_METHOD.card });
    const form = unionPayForm({ cno: pgCno, memb_id: ids.mallId, order_no: orderNo, amount });
    ctx.sender.send(
      { notiType: '70', url: notifyUrl, body: form.body, contentType: form.contentType, ackForm: 'form', pgCno, cancelPgCno: null, shopOrderNo: orderNo },
      ctx.scenarios.takeNotify(),
    );
  }
  return answer;
}

/** VAN cancellation (`/smpy/vanpay/reqCancel`) of an approval named by `pgCno` or `orgShopTransactionId`. */
export function cancelVan(ctx: SandboxContext, body: Record<string, unknown>): GatewayAnswer {
  const ids = required(body);
  if ('resCd' in ids) return ids;
  const earlier = ctx.ledger.vanCancels.get(ids.shopTransactionId);
  if (earlier) return earlier;
  const pgCno = text(body, 'pgCno');
  const original = [...ctx.ledger.vanApprovals.values()].find((a) =>
    pgCno ? a.pgCno === pgCno : a.shopTransactionId === (text(body, 'orgShopTransactionId') ?? ids.shopTransactionId),
  );
  if (!original || original.mallId !== ids.mallId || original.state !== 'approved') {
    return refusal('E201', SANDBOX_CODES.E201!, 'no standing approval with that pgCno or orgShopTransactionId', ids);
  }
  original.state = 'cancelled';
  const answer: GatewayAnswer = { resCd: '0000', resMsg: '정상취소', ...ids, pgCno: original.pgCno, cancelDate: kstStamp() };
  ctx.ledger.vanCancels.set(ids.shopTransactionId, answer);
  return answer;
}

/**
 * Net-cancel (`/smpy/vanpay/reqRtran`): the approval's own body, sent when its answer was
 * lost. It reverses the approval if one was made; if none was, there is nothing to undo and
 * the answer is still 0000, so the caller can close the case either way.
 */
export function netCancelVan(ctx: SandboxContext, body: Record<string, unknown>): GatewayAnswer {
  const ids = required(body);
  if ('resCd' in ids) return ids;
  const approval = ctx.ledger.vanApprovals.get(ids.shopTransactionId);
  if (!approval) return { resCd: '0000', resMsg: '망취소 완료(원거래 없음)', ...ids, cancelDate: kstStamp() };
  if (approval.state === 'approved') approval.state = 'net-cancelled';
  return { resCd: '0000', resMsg: '망취소 완료', ...ids, pgCno: approval.pgCno, cancelDate: kstStamp() };
}
