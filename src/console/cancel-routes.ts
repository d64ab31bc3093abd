import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { parseBody } from '../api/api-errors';
import { walletCancelBody } from '../api/schemas/wallet-cancel-schema';
import { cancelVan } from '../commands/cancel-van';
import { CancelExceedsPayment } from '../commands/cancel-exceeds-payment';
import { cancelWallet } from '../commands/cancel-wallet';
import type { CommandDeps } from '../commands/command-deps';
import type { StoredCommand } from '../commands/command-record';
import { orderCurrency } from '../ledger/fold/order-currency';
import type { OrderRecord } from '../ledger/fold/order-record';
import { audit } from './audit';
import type { ConsoleDeps } from './console-deps';
import { CONSOLE_COMMAND_PREFIX, mayCancel, paymentView, type PaymentView } from './payment-cancel';
import { cancelConfirmPage, cancelRefusedPage } from './pages/cancel-page';
import { notFoundPage } from './pages/not-found-page';
import { orderHref } from './pages/order-status-badge';
import { forbiddenPage } from './pages/refusal-pages';
import { sessionOf } from './require-session';
import { typedAmountIn } from './search-query';

/** The gateway's limit on an idempotency key, and the characters the console's own keys use. */
const COMMAND_ID = /^[A-Za-z0-9_-]{1,60}$/;
const MINOR = /^\d{1,15}$/;

interface Prepared {
  order: OrderRecord;
  view: PaymentView;
  currency: string;
  gateway: CommandDeps;
}

const field = (source: Record<string, unknown>, name: string) => (typeof source[name] === 'string' ? source[name] : '');

/**
 * Cancel from an order's page: a confirmation (GET: nothing is sent) and the cancel itself (POST),
 * sent as the internal API sends it, through the same command (recorded before the first byte,
 * resent with the same shopTransactionId and cancelReqDate). Each step checks again, on the
 * server, who may cancel and what is left of the payment: a form's fields are never trusted.
 */
export function cancelRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const defaultCurrency = deps.config.LEDGER_DEFAULT_CURRENCY;

  /** The order, its payment and what is left of it, once the operator may cancel; else the refusal is sent and null returned. */
  async function prepare(req: Request, res: Response, pgCno: string): Promise<Prepared | null> {
    const session = sessionOf(res);
    const { t } = session;
    if (!(await mayCancel(deps, session))) {
      deps.logger.warn('console refused a cancel: the operator may not cancel payments', { operator: session.operator, role: session.role });
      res.status(403).type('html').send(forbiddenPage(session, t('cancel.notAllowed')));
      return null;
    }
    const { mallId, shopOrderNo } = req.params as { mallId: string; shopOrderNo: string };
    const order = deps.ledger ? await deps.ledger.getOrder({ mallId, shopOrderNo }) : null;
    if (!order) {
      res.status(404).type('html').send(notFoundPage(session, 'orders', t('notFound.order', { shopOrderNo, mallId })));
      return null;
    }
    // Only the payment being cancelled is read, whatever else the order holds.
    const view = await paymentView(deps, order, pgCno);
    if (!view || view.route === null || !deps.gatewayCommands) {
      res.status(400).type('html').send(cancelRefusedPage(session, order, t('cancel.notCancellable')));
      return null;
    }
    // As the internal API: nothing is sent for a mall outside MALL_IDS (an order stored before they were narrowed).
    if (!view.served) {
      deps.logger.warn('console refused a cancel: the mall is not one of MALL_IDS', { mallId: order.mallId, operator: session.operator });
      res.status(403).type('html').send(cancelRefusedPage(session, order, t('cancel.mallNotServed', { mallId: order.mallId })));
      return null;
    }
    return { order, view, currency: orderCurrency(order, defaultCurrency), gateway: deps.gatewayCommands };
  }

  const refuse = (res: Response, p: Prepared, status: number, message: string): null => {
    res.status(status).type('html').send(cancelRefusedPage(sessionOf(res), p.order, message));
    return null;
  };

  /** A partial amount (minor units) checked against what is left, or the refusal sent. */
  function partialAmount(res: Response, p: Prepared, amount: number | null): number | null {
    const { t } = sessionOf(res);
    if (p.view.route !== 'wallet-b') return refuse(res, p, 400, t('cancel.vanWhole'));
    if (amount === null || amount <= 0) return refuse(res, p, 400, t('cancel.badAmount'));
    if (amount > p.view.left) return refuse(res, p, 400, t('cancel.tooMuch', { amount: t.money(amount, p.currency), left: t.money(p.view.left, p.currency) }));
    return amount;
  }

  /** All that is left, or the refusal sent when nothing is. */
  function wholeAmount(res: Response, p: Prepared): number | null {
    return p.view.left > 0 ? p.view.left : refuse(res, p, 400, sessionOf(res).t('cancel.nothingLeft'));
  }

  router.get('/orders/:mallId/:shopOrderNo/cancel', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const p = await prepare(req, res, field(query, 'pgCno'));
    if (!p) return;
    const typed = field(query, 'amount').trim();
    const type = field(query, 'type');
    // An amount typed is a partial cancel of it, whichever choice the form still showed: the
    // operator's figure is never read as "all that is left". The confirmation names the amount.
    const partial = typed !== '' || type === 'partial';
    if (!partial && type !== 'full') return void refuse(res, p, 400, sessionOf(res).t('cancel.badAmount'));
    const amount = partial ? partialAmount(res, p, typedAmountIn(typed, p.currency)) : wholeAmount(res, p);
    if (amount === null) return;
    res.type('html').send(cancelConfirmPage(sessionOf(res), {
      order: p.order, view: p.view, currency: p.currency, amount, type: partial ? 'partial' : 'full',
      shopTransactionId: `${CONSOLE_COMMAND_PREFIX}${randomUUID().replaceAll('-', '')}`,
    }));
  });

  router.post('/orders/:mallId/:shopOrderNo/cancel', async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const session = sessionOf(res);
    const p = await prepare(req, res, field(body, 'pgCno'));
    if (!p) return;
    const shopTransactionId = field(body, 'shopTransactionId');
    const back = orderHref(p.order.mallId, p.order.shopOrderNo);
    if (!COMMAND_ID.test(shopTransactionId)) return res.status(400).type('html').send(cancelRefusedPage(session, p.order, session.t('cancel.badAmount')));
    // The same confirmation pressed twice (or the browser's resend): the command exists, nothing more is sent.
    if (await p.gateway.store.getCommand(shopTransactionId)) return res.redirect(303, `${back}?done=cancel-requested`);
    const type = field(body, 'type');
    const given = MINOR.test(field(body, 'amount')) ? Number(field(body, 'amount')) : null;
    let amount: number | null;
    if (type === 'partial') amount = partialAmount(res, p, given);
    else if (type !== 'full') amount = refuse(res, p, 400, session.t('cancel.badAmount'));
    else {
      amount = wholeAmount(res, p);
      // The confirmation named the amount it would cancel: a full cancel is sent only while that is still all that is left.
      if (amount !== null && field(body, 'amount') !== '' && given !== amount) {
        amount = refuse(res, p, 409, session.t('cancel.leftChanged', { confirmed: given === null ? field(body, 'amount') : session.t.money(given, p.currency), left: session.t.money(amount, p.currency) }));
      }
    }
    if (amount === null) return;
    let command: StoredCommand;
    try {
      command = p.view.route === 'van'
        ? (await cancelVan(p.gateway, { mallId: p.order.mallId, shopTransactionId, pgCno: p.view.payment.pgCno })).command
        : (await cancelWallet(p.gateway, parseBody(walletCancelBody, {
          mallId: p.order.mallId, pgCno: p.view.payment.pgCno, shopTransactionId, memo: 'console cancel',
          reviseTypeCode: type === 'full' ? '40' : '32',
          amountInfo: { currency: p.currency, ...(type === 'full' ? {} : { totAmount: amount }) },
        }))).command;
    } catch (error) {
      if (error instanceof CancelExceedsPayment) {
        // Another cancel of this payment was recorded meanwhile (another page, replica or API call).
        deps.logger.warn('console refused a cancel: it does not fit in what is left', { pgCno: p.view.payment.pgCno, amount, left: error.refusal.left });
        const { left } = error.refusal;
        return void refuse(res, p, 409, left <= 0 ? session.t('cancel.nothingLeft') : session.t('cancel.tooMuch', { amount: session.t.money(amount, p.currency), left: session.t.money(left, p.currency) }));
      }
      deps.logger.warn('console cancel not sent', { error: (error as Error).message });
      return res.status(503).type('html').send(cancelRefusedPage(session, p.order, session.t('cancel.failed', { reason: (error as Error).message })));
    }
    await audit(deps, session.actor, 'requested cancel', `${p.order.mallId}/${p.order.shopOrderNo}`,
      `command ${command.shopTransactionId} (${command.command}, ${command.state}): ${type} cancel of ${amount} ${p.currency} minor units of pgCno ${p.view.payment.pgCno}`);
    res.redirect(303, `${back}?done=cancel-requested`);
  });

  return router;
}
