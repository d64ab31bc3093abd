import { cancellationFact } from '../../../ledger/fold/cancellation-fact';
import { walletTradeExpectation } from '../../../ledger/fold/expectation-fact';
import { minorUnits } from '../../../ledger/fold/minor-units';
import { cancelClaim } from '../../../ledger/fold/payment-left';
import type { StoredCommand } from '../../command-types';
import type { OrderFact } from '../../../ledger/projection/loaded-order';
import { get, type Procedure } from '../procedure';

/**
 * What a command's new state tells the ledger: a wallet-a trade that succeeded is the
 * amount the shop asked for; a cancel (wallet-b, or VAN naming its pgCno), at any state from its
 * creation on, is a cancellation requested (never counted as cancelled). A cancellation names a
 * pgCno, not an order: the order is the one the gateway's notifications for that pgCno named (the
 * inbox keeps that column after retention).
 * Nothing when the order is unknown or the trade carries no readable amount. Each fact's id is
 * its command's (and state's), so finishing in the same state again adds nothing.
 */
export function* commandLedgerFacts(command: StoredCommand): Procedure<OrderFact[]> {
  const { request } = command;
  if (command.command === 'wallet-a.create' && command.state === 'succeeded') {
    const amountInfo = (request.amountInfo ?? {}) as Record<string, unknown>;
    const totalAmount = minorUnits(amountInfo.totalAmount);
    const shopOrderNo = text(request.shopOrderNo);
    if (totalAmount === null || shopOrderNo === null) return [];
    const order = { mallId: command.mallId, shopOrderNo };
    const currency = text(amountInfo.currency) ?? text(request.currency) ?? 'KRW';
    return [{ order, fact: walletTradeExpectation(order, { shopTransactionId: command.shopTransactionId, totalAmount, currency }, command.updatedAt) }];
  }
  const claim = cancelClaim(command.command, request);
  if (claim !== null) {
    const { pgCno } = claim;
    const row = yield* get<{ mall_id: string; shop_order_no: string }>(
      "SELECT mall_id, shop_order_no FROM inbox WHERE pg_cno = ? AND shop_order_no IS NOT NULL LIMIT 1",
      pgCno,
    );
    if (!row) return [];
    const order = { mallId: row.mall_id, shopOrderNo: row.shop_order_no };
    return [{ order, fact: cancellationFact(order, { shopTransactionId: command.shopTransactionId, pgCno, state: command.state }, command.updatedAt) }];
  }
  return [];
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
