import express, { Router, type Response } from 'express';
import { html, page } from './html';
import type { Trade } from './ledger';
import type { SandboxContext } from './sandbox-context';
import { declineTrade, payTrade } from './wallet-a';

/** Amounts arrive in minor units (12.03 dollars is 1203); the currency says how many decimals. */
export function formatAmount(amount: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    return `${amount} ${currency}`;
  }
}

/**
 * The customer's side: one page per trade with `Pay` and `Decline`. A `mweb` trade's page is
 * its redirect URL; a `native` trade's code URL opens the same page, standing in for the
 * wallet app that would scan the code.
 */
export function paymentPages(ctx: SandboxContext): Router {
  const router = Router();
  router.use(express.urlencoded({ extended: false, limit: '16kb' }));
  const find = (token: string, res: Response): Trade | undefined => {
    const trade = ctx.ledger.trades.get(token);
    if (!trade) res.status(404).type('html').send(page('Unknown trade', html`<div class="card narrow"><h1>Unknown trade</h1><p>No trade has this payment page. Create one with POST /api/trades/wallet-a.</p></div>`));
    return trade;
  };
  for (const prefix of ['/pay', '/code']) {
    router.get(`${prefix}/:token`, (req, res) => {
      const trade = find(req.params.token, res);
      if (trade) res.type('html').send(page(`Pay ${trade.goodsName}`, trade.state === 'created' ? checkout(trade) : outcome(trade)));
    });
  }
  router.post('/pay/:token/:choice', (req, res) => {
    const trade = find(req.params.token, res);
    if (!trade) return;
    if (req.params.choice === 'pay') payTrade(ctx, trade);
    else if (req.params.choice === 'decline') declineTrade(trade);
    else return void res.status(404).end();
    res.redirect(303, `/pay/${trade.token}`);
  });
  return router;
}

function summary(trade: Trade) {
  return html`<dl>
    <dt>Merchant</dt><dd>${trade.mallId}</dd>
    <dt>Order</dt><dd>${trade.shopOrderNo}</dd>
    <dt>Transaction</dt><dd class="mono">${trade.shopTransactionId}</dd>
    ${trade.pgCno ? html`<dt>PG number</dt><dd class="mono">${trade.pgCno}</dd>` : ''}
  </dl>`;
}

function checkout(trade: Trade) {
  return html`<div class="card narrow">
    <p class="muted">${trade.tradeType === 'native' ? 'Scanned payment code' : 'Wallet checkout'}</p>
    <h1>${trade.goodsName}</h1>
    <div class="amount">${formatAmount(trade.amount, trade.currency)}</div>
    ${summary(trade)}
    <div class="buttons">
      <form method="post" action="/pay/${trade.token}/decline"><button type="submit">Decline</button></form>
      <form method="post" action="/pay/${trade.token}/pay"><button type="submit" class="primary">Pay</button></form>
    </div>
  </div>`;
}

function outcome(trade: Trade) {
  const paid = trade.state === 'paid';
  return html`<div class="card narrow">
    <p><span class="tag ${paid ? 'ok' : 'bad'}">${paid ? 'Paid' : 'Declined'}</span></p>
    <h1>${paid ? 'Payment approved' : 'Payment declined'}</h1>
    <div class="amount">${formatAmount(trade.amount, trade.currency)}</div>
    ${summary(trade)}
    <p class="muted">${paid
      ? trade.notifyUrl ? html`Notification 10 is on its way to <code>${trade.notifyUrl}</code>.` : 'The trade named no notifyUrl, so no notification is sent.'
      : 'Nothing was approved, so no notification is sent.'}</p>
    <p><a href="/sandbox/timeline">See the timeline</a>${trade.returnUrl ? html` · <a href="${trade.returnUrl}">Back to the shop</a>` : ''}</p>
  </div>`;
}
