import { changeNotification, nextPgCno, transferFailedNotification } from '../simulator/notification-builders';
import { refusal, SANDBOX_CODES, text, type GatewayAnswer } from './ledger';
import { kstStamp } from '../notifications/kst-date';
import { msgAuthMatches } from './msg-auth';
import { PORTAL_METHOD } from './gateway-books';
import type { SandboxContext } from './sandbox-context';

const FULL = '40';
const PARTIAL = '32';

/**
 * Cancellation (`POST /api/trades/wallet-b/revise`), checked as the gateway checks it: the
 * HMAC over `pgCno|shopTransactionId`, then the idempotency key. A resend with the same key
 * gets the first answer and cancels nothing more; one whose `cancelReqDate` changed is
 * refused, because the gateway cannot tell it from a second, different cancellation.
 */
export function reviseTrade(ctx: SandboxContext, body: Record<string, unknown>): GatewayAnswer {
  const mallId = text(body, 'mallId');
  const pgCno = text(body, 'pgCno');
  const shopTransactionId = text(body, 'shopTransactionId');
  const reviseTypeCode = text(body, 'reviseTypeCode');
  const cancelReqDate = text(body, 'cancelReqDate');
  const msgAuthValue = text(body, 'msgAuthValue');
  const ids = { mallId, shopTransactionId, pgCno };
  const missing = [
    !mallId && 'mallId', !pgCno && 'pgCno', !shopTransactionId && 'shopTransactionId', !reviseTypeCode && 'reviseTypeCode',
    !cancelReqDate && 'cancelReqDate', !msgAuthValue && 'msgAuthValue',
  ].filter(Boolean);
  if (missing.length > 0) return refusal('E101', SANDBOX_CODES.E101!, `missing ${missing.join(', ')}`, ids);
  if (!/^\d{8}$/.test(cancelReqDate!)) return refusal('E101', SANDBOX_CODES.E101!, 'cancelReqDate must be yyyyMMdd', ids);

  const key = ctx.settings.secretKeyFor(mallId!);
  if (!key) return refusal('E102', SANDBOX_CODES.E102!, `the sandbox has no key for mall ${mallId}: set GATEWAY_SECRET_KEY`, ids);
  if (!msgAuthMatches(key, pgCno!, shopTransactionId!, msgAuthValue!)) {
    return refusal('E102', SANDBOX_CODES.E102!, 'msgAuthValue is not HMAC-SHA256(key, pgCno|shopTransactionId) in lowercase hex or base64', ids);
  }

  const earlier = ctx.ledger.revisions.get(shopTransactionId!);
  if (earlier) {
    if (earlier.cancelReqDate !== cancelReqDate) {
      return refusal('E103', SANDBOX_CODES.E103!, `this shopTransactionId was first sent with cancelReqDate ${earlier.cancelReqDate}; a resend must keep it`, ids);
    }
    return earlier.answer;
  }

  const trade = ctx.ledger.tradeByPgCno.get(pgCno!);
  if (!trade || trade.mallId !== mallId) return refusal('E201', SANDBOX_CODES.E201!, `no paid trade with pgCno ${pgCno} for mall ${mallId}`, ids);
  if (trade.remaining === 0) return refusal('E202', SANDBOX_CODES.E202!, 'the trade is already fully cancelled', ids);
  let cancelAmount: number;
  if (reviseTypeCode === FULL) cancelAmount = trade.remaining;
  else if (reviseTypeCode === PARTIAL) {
    const amountText = text(body, 'amountInfo', 'totAmount');
    if (!amountText || !/^[1-9]\d*$/.test(amountText)) return refusal('E101', SANDBOX_CODES.E101!, 'a partial cancel (32) needs amountInfo.totAmount, a positive integer', ids);
    cancelAmount = Number(amountText);
    if (cancelAmount > trade.remaining) return refusal('E202', SANDBOX_CODES.E202!, `at most ${trade.remaining} remains`, ids);
  } else return refusal('E101', SANDBOX_CODES.E101!, 'reviseTypeCode must be 40 (full) or 32 (partial)', ids);

  const scenario = ctx.scenarios.takeCancel();
  trade.remaining -= cancelAmount;
  // The remainder the gateway reports: what is left, unless a scenario makes it wrong on purpose.
  const reported = scenario?.kind === 'wrong-remainder' ? scenario.remainAmount ?? trade.remaining + 1 : trade.remaining;
  const partial = trade.remaining > 0;
  const status = partial ? { statusCode: 'TS06', statusMessage: '부분매입취소' } : { statusCode: 'TS04', statusMessage: '매입취소' };
  const cancelPgCno = nextPgCno();
  const answer: GatewayAnswer = {
    resCd: '0000',
    resMsg: '정상취소',
    ...ids,
    cancelPgCno,
    reviseTypeCode,
    cancelAmount: String(cancelAmount),
    remainAmount: String(reported),
    cancelDate: kstStamp(),
    ...status,
  };
  ctx.ledger.revisions.set(shopTransactionId!, { shopTransactionId: shopTransactionId!, cancelReqDate: cancelReqDate!, answer });
  ctx.books.record({
    kind: 'cancel', mallId: trade.mallId, pgCno: pgCno!, cancelPgCno, shopOrderNo: trade.shopOrderNo, approvalNo: null,
    amount: cancelAmount, remainingAfter: trade.remaining, method: PORTAL_METHOD.wallet,
  });
  if (trade.notifyUrl) {
    const notification = changeNotification({
      mallId: trade.mallId,
      pgCno: pgCno!,
      shopOrderNo: trade.shopOrderNo,
      cancelPgCno,
      amount: String(cancelAmount),
      cancelAmount: String(cancelAmount),
      cancelRemainAmount: String(reported),
      cancelDate: String(answer.cancelDate),
      ...status,
    });
    ctx.sender.send(
      {
        notiType: '20', url: trade.notifyUrl, body: Buffer.from(JSON.stringify(notification), 'utf8'),
        contentType: 'application/json; charset=utf-8', ackForm: 'json', pgCno: pgCno!, cancelPgCno, shopOrderNo: trade.shopOrderNo,
      },
      ctx.scenarios.takeNotify(),
    );
    if (scenario?.kind === 'refund-fails') {
      // Event 51: the bank refused the refund's payout (B102, a wrong account); the merchant must repeat it.
      const failed = transferFailedNotification({ mallId: trade.mallId, pgCno: pgCno!, shopOrderNo: trade.shopOrderNo, amount: String(cancelAmount) });
      ctx.sender.send({
        notiType: '51', url: trade.notifyUrl, body: Buffer.from(JSON.stringify(failed), 'utf8'),
        contentType: 'application/json; charset=utf-8', ackForm: 'json', pgCno: pgCno!, cancelPgCno: null, shopOrderNo: trade.shopOrderNo,
      });
    }
  }
  return answer;
}
