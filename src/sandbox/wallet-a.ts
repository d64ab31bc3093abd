import { randomBytes } from 'node:crypto';
import { approvalNotification, nextPgCno } from '../simulator/notification-builders';
import { refusal, SANDBOX_CODES, text, type GatewayAnswer, type Trade } from './ledger';
import { kstStamp } from '../notifications/kst-date';
import { PORTAL_METHOD } from './gateway-books';
import type { SandboxContext } from './sandbox-context';
import type { NotifyScenario } from './scenarios';

const TRADE_TYPES = ['mweb', 'native'] as const;

/**
 * Trade creation (`POST /api/trades/wallet-a`). The same `shopTransactionId` answers the
 * trade already made, so a caller that resends after a time-out gets one trade, not two.
 */
export function createTrade(ctx: SandboxContext, body: Record<string, unknown>): GatewayAnswer {
  const mallId = text(body, 'mallId');
  const shopTransactionId = text(body, 'shopTransactionId');
  const ids = { mallId, shopTransactionId };
  const existing = shopTransactionId ? ctx.ledger.tradeByTransaction.get(shopTransactionId) : undefined;
  if (existing) return existing.answer;

  const amountText = text(body, 'amountInfo', 'totalAmount') ?? text(body, 'totalAmount');
  const goodsName = text(body, 'goodsName') ?? text(body, 'orderInfo', 'goodsName');
  const tradeType = (text(body, 'tradeType') ?? 'mweb') as Trade['tradeType'];
  const notifyUrl = text(body, 'notifyUrl') ?? ctx.settings.defaultNotifyUrl;
  const missing = [!mallId && 'mallId', !shopTransactionId && 'shopTransactionId', !amountText && 'amountInfo.totalAmount', !goodsName && 'goodsName'].filter(Boolean);
  if (missing.length > 0) return refusal('E101', SANDBOX_CODES.E101!, `missing ${missing.join(', ')}`, ids);
  if (!/^[1-9]\d*$/.test(amountText!)) return refusal('E101', SANDBOX_CODES.E101!, 'amountInfo.totalAmount must be a positive integer', ids);
  if (!(TRADE_TYPES as readonly string[]).includes(tradeType)) return refusal('E101', SANDBOX_CODES.E101!, 'tradeType must be mweb or native', ids);

  const token = randomBytes(9).toString('base64url');
  const pagePath = tradeType === 'native' ? `/code/${token}` : `/pay/${token}`;
  const answer: GatewayAnswer = {
    resCd: '0000',
    resMsg: '정상처리',
    mallId,
    shopTransactionId,
    shopOrderNo: text(body, 'shopOrderNo') ?? shopTransactionId,
    tradeType,
    paymentPageUrl: `${ctx.settings.publicUrl}${pagePath}`,
    createdDate: kstStamp(),
  };
  const trade: Trade = {
    token,
    mallId: mallId!,
    shopTransactionId: shopTransactionId!,
    shopOrderNo: String(answer.shopOrderNo),
    goodsName: goodsName!,
    amount: Number(amountText),
    currency: text(body, 'amountInfo', 'currency') ?? text(body, 'currency') ?? 'USD',
    tradeType,
    notifyUrl,
    // Shown as a link on the payment page: only a web address, never a javascript: URL.
    returnUrl: /^https?:\/\//i.test(text(body, 'returnUrl') ?? '') ? text(body, 'returnUrl')! : null,
    state: 'created',
    pgCno: null,
    remaining: Number(amountText),
    answer,
    createdAt: new Date().toISOString(),
  };
  ctx.ledger.trades.set(token, trade);
  ctx.ledger.tradeByTransaction.set(trade.shopTransactionId, trade);
  return answer;
}

/**
 * The customer pressed `Pay`: the gateway approves and notifies the shop with event 10. A `pay`
 * scenario makes the gateway get the money wrong on purpose (see PayScenario).
 */
export function payTrade(ctx: SandboxContext, trade: Trade): void {
  if (trade.state !== 'created') return;
  const scenario = ctx.scenarios.takePay();
  trade.state = 'paid';
  trade.pgCno = nextPgCno();
  if (scenario?.kind === 'other-amount') trade.remaining = scenario.amount;
  ctx.ledger.tradeByPgCno.set(trade.pgCno, trade);
  bookPayment(ctx, trade, trade.pgCno, trade.remaining);
  notifyApproval(ctx, trade, trade.pgCno, trade.remaining, ctx.scenarios.takeNotify());
  if (scenario?.kind === 'pay-twice') {
    // A second payment of its own: the merchant can cancel it through wallet-b like the first.
    const second: Trade = { ...trade, pgCno: nextPgCno(), remaining: trade.amount };
    ctx.ledger.tradeByPgCno.set(second.pgCno!, second);
    bookPayment(ctx, second, second.pgCno!, second.amount);
    notifyApproval(ctx, second, second.pgCno!, second.amount);
  }
}

function bookPayment(ctx: SandboxContext, trade: Trade, pgCno: string, amount: number): void {
  ctx.books.record({ kind: 'payment', mallId: trade.mallId, pgCno, cancelPgCno: null, shopOrderNo: trade.shopOrderNo, approvalNo: pgCno.slice(-8), amount, remainingAfter: null, method: PORTAL_METHOD.wallet });
}

function notifyApproval(ctx: SandboxContext, trade: Trade, pgCno: string, amount: number, scenario?: NotifyScenario): void {
  if (!trade.notifyUrl) return;
  const notification = approvalNotification({
    mallId: trade.mallId,
    pgCno,
    shopOrderNo: trade.shopOrderNo,
    shopTransactionId: trade.shopTransactionId,
    amount: String(amount),
    currency: trade.currency,
    goodsName: trade.goodsName,
  });
  ctx.sender.send(
    {
      notiType: '10',
      url: trade.notifyUrl,
      body: Buffer.from(JSON.stringify(notification), 'utf8'),
      contentType: 'application/json; charset=utf-8',
      ackForm: 'json',
      pgCno,
      cancelPgCno: null,
      shopOrderNo: trade.shopOrderNo,
    },
    scenario,
  );
}

/** The customer pressed `Decline`: nothing is approved, so the gateway sends nothing. */
export function declineTrade(trade: Trade): void {
  if (trade.state === 'created') trade.state = 'declined';
}
