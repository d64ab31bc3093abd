import express, { Router, type Response } from 'express';
import { formatMoney } from '../money/format-money';
import { INTL_LOCALE } from '../console/i18n/locale';
import type { Translator } from '../console/i18n/translator';
import { html, page, rich, sandboxWords } from './html';
import type { Trade } from './ledger';
import type { SandboxContext } from './sandbox-context';
import { declineTrade, payTrade } from './wallet-a';

/** Amounts arrive in minor units (12.03 dollars is 1203): the one formatter the console and the CLI use, in the page's language. */
export const formatAmount = (amount: number, currency: string, t?: Translator): string => formatMoney(amount, currency, t ? INTL_LOCALE[t.locale] : 'en-US');

/**
 * The customer's side: one page per trade with `Pay` and `Decline`. A `mweb` trade's page is
 * its redirect URL; a `native` trade's code URL opens the same page, standing in for the
 * wallet app that would scan the code.
 */
export function paymentPages(ctx: SandboxContext): Router {
  const router = Router();
  router.use(express.urlencoded({ extended: false, limit: '16kb' }));
  const find = (token: string, res: Response, t: Translator): Trade | undefined => {
    const trade = ctx.ledger.trades.get(token);
    if (!trade) res.status(404).type('html').send(page(t('sandbox.unknownTrade'), html`<div class="card narrow"><h1>${t('sandbox.unknownTrade')}</h1><p>${t('sandbox.unknownTradeText')} <code>POST /api/trades/wallet-a</code>.</p></div>`, t));
    return trade;
  };
  for (const prefix of ['/pay', '/code']) {
    router.get(`${prefix}/:token`, (req, res) => {
      const t = sandboxWords(req);
      const trade = find(req.params.token, res, t);
      if (trade) res.type('html').send(page(t('sandbox.payTitle', { goods: trade.goodsName }), trade.state === 'created' ? checkout(t, trade) : outcome(t, trade), t, req.path));
    });
  }
  router.post('/pay/:token/:choice', (req, res) => {
    const trade = find(req.params.token, res, sandboxWords(req));
    if (!trade) return;
    if (req.params.choice === 'pay') payTrade(ctx, trade);
    else if (req.params.choice === 'decline') declineTrade(trade);
    else return void res.status(404).end();
    res.redirect(303, `/pay/${trade.token}`);
  });
  return router;
}

function summary(t: Translator, trade: Trade) {
  return html`<dl>
    <dt>${t('sandbox.merchant')}</dt><dd class="mono">${trade.mallId}</dd>
    <dt>${t('sandbox.order')}</dt><dd class="mono">${trade.shopOrderNo}</dd>
    <dt>${t('sandbox.transaction')}</dt><dd class="mono">${trade.shopTransactionId}</dd>
    ${trade.pgCno ? html`<dt>${t('sandbox.pgNumber')}</dt><dd class="mono">${trade.pgCno}</dd>` : ''}
  </dl>`;
}

/** The goods' name is the shop's own text, shown as it came. */
function checkout(t: Translator, trade: Trade) {
  return html`<div class="card narrow">
    <p class="muted">${trade.tradeType === 'native' ? t('sandbox.scanned') : t('sandbox.walletCheckout')}</p>
    <h1 class="data">${trade.goodsName}</h1>
    <div class="amount">${formatAmount(trade.amount, trade.currency, t)}</div>
    ${summary(t, trade)}
    <div class="buttons">
      <form method="post" action="/pay/${trade.token}/decline"><button type="submit">${t('sandbox.decline')}</button></form>
      <form method="post" action="/pay/${trade.token}/pay"><button type="submit" class="primary">${t('sandbox.pay')}</button></form>
    </div>
  </div>`;
}

function outcome(t: Translator, trade: Trade) {
  const paid = trade.state === 'paid';
  return html`<div class="card narrow">
    <p><span class="tag ${paid ? 'ok' : 'bad'}">${paid ? t('sandbox.paidTag') : t('sandbox.declinedTag')}</span></p>
    <h1>${paid ? t('sandbox.approvedHeading') : t('sandbox.declinedHeading')}</h1>
    <div class="amount">${formatAmount(trade.amount, trade.currency, t)}</div>
    ${summary(t, trade)}
    <p class="muted">${paid
      ? trade.notifyUrl ? html`${t('sandbox.notificationOnWay')} <code>${trade.notifyUrl}</code>.` : rich(t, 'sandbox.noNotifyUrl')
      : t('sandbox.nothingApproved')}</p>
    <p><a href="/sandbox/timeline">${t('sandbox.seeTimeline')}</a>${trade.returnUrl ? html` · <a href="${trade.returnUrl}">${t('sandbox.backToShop')}</a>` : ''}</p>
  </div>`;
}
