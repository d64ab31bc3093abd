import express, { Router } from 'express';
import type { Translator } from '../console/i18n/translator';
import { html, page, rich, sandboxWords } from './html';
import { formatAmount } from './payment-page';
import type { SandboxContext } from './sandbox-context';
import { CALL_OPERATIONS, MONEY_OPERATIONS, describeScenario, scenarioRequest } from './scenarios';

/**
 * The tester's desk: trades made so far (each linking to its payment page), the scenarios
 * waiting for their next call, and a form to add one. `POST /sandbox/scenarios` takes the
 * same fields as JSON, so a test can set a scenario without a browser.
 */
export function homePage(ctx: SandboxContext): Router {
  const router = Router();
  router.use('/sandbox/scenarios', express.urlencoded({ extended: false, limit: '16kb' }), express.json({ limit: '16kb' }));
  router.get(['/', '/sandbox'], (req, res) => {
    const t = sandboxWords(req);
    res.type('html').send(page(t('sandbox.home.title'), body(ctx, t), t));
  });
  router.post('/sandbox/scenarios', (req, res) => {
    const parsed = scenarioRequest.safeParse(req.body);
    const wantsJson = !req.is('application/x-www-form-urlencoded');
    if (!parsed.success) {
      const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      if (wantsJson) return void res.status(400).json({ error: message });
      const t = sandboxWords(req);
      return void res.status(400).type('html').send(page(t('sandbox.home.refused'), html`<div class="card narrow"><h1>${t('sandbox.home.refused')}</h1><p lang="en">${message}</p><p><a href="/sandbox">${t('sandbox.home.back')}</a></p></div>`, t));
    }
    const pending = ctx.scenarios.add(parsed.data);
    if (wantsJson) res.status(201).json(pending);
    else res.redirect(303, '/sandbox');
  });
  router.post('/sandbox/scenarios/clear', (req, res) => {
    ctx.scenarios.clear();
    if (req.is('application/x-www-form-urlencoded')) res.redirect(303, '/sandbox');
    else res.status(204).end();
  });
  return router;
}

/** Scenario descriptions (describeScenario) and the goods' names are shown as written (English, the shop's text). */
function body(ctx: SandboxContext, t: Translator) {
  const trades = [...ctx.ledger.trades.values()].reverse();
  const pending = ctx.scenarios.pending();
  const kinds: Array<[string, Parameters<Translator>[0]]> = [
    ['timeout', 'sandbox.home.kind.timeout'], ['reset', 'sandbox.home.kind.reset'], ['code', 'sandbox.home.kind.code'],
    ['reply-lost', 'sandbox.home.kind.replyLost'], ['duplicates', 'sandbox.home.kind.duplicates'], ['other-amount', 'sandbox.home.kind.otherAmount'],
    ['pay-twice', 'sandbox.home.kind.payTwice'], ['wrong-remainder', 'sandbox.home.kind.wrongRemainder'], ['refund-fails', 'sandbox.home.kind.refundFails'],
    ['lost', 'sandbox.home.kind.lost'], ['garbled', 'sandbox.home.kind.garbled'], ['altered-amount', 'sandbox.home.kind.alteredAmount'],
  ];
  const malls = [...new Set(trades.map((trade) => trade.mallId))];
  return html`<h1>${t('sandbox.home.heading')}</h1>
  <h2>${t('sandbox.home.trades')}</h2>
  ${trades.length === 0 ? html`<div class="card muted">${t('sandbox.home.noTrade')} <code>POST /api/trades/wallet-a</code></div>` : html`
  <table><thead><tr><th>${t('sandbox.home.col.order')}</th><th>${t('sandbox.home.col.goods')}</th><th>${t('sandbox.home.col.amount')}</th><th>${t('sandbox.home.col.state')}</th><th>${t('sandbox.home.col.remaining')}</th><th>${t('sandbox.home.col.page')}</th></tr></thead><tbody>
  ${trades.map((trade) => html`<tr><td class="mono">${trade.shopOrderNo}</td><td class="data">${trade.goodsName}</td><td>${formatAmount(trade.amount, trade.currency, t)}</td>
    <td><span class="tag mono ${trade.state === 'paid' ? 'ok' : trade.state === 'declined' ? 'bad' : 'wait'}">${trade.state}</span></td>
    <td>${formatAmount(trade.remaining, trade.currency, t)}</td><td><a href="${`/${trade.tradeType === 'native' ? 'code' : 'pay'}/${trade.token}`}">${t('sandbox.home.open')}</a></td></tr>`)}
  </tbody></table>`}
  <h2>${t('sandbox.home.waiting')}</h2>
  ${pending.length === 0 ? html`<div class="card muted">${t('sandbox.home.noneWaiting')}</div>` : html`
  <table><thead><tr><th>${t('sandbox.home.col.operation')}</th><th>${t('sandbox.home.col.what')}</th><th>${t('sandbox.home.col.times')}</th></tr></thead><tbody>
  ${pending.map((p) => html`<tr><td class="mono">${p.operation}</td><td lang="en">${describeScenario(p.scenario)}</td><td>${p.remaining}</td></tr>`)}
  </tbody></table>
  <form method="post" action="/sandbox/scenarios/clear" style="margin-top:10px"><button type="submit">${t('sandbox.home.clear')}</button></form>`}
  <h2>${t('sandbox.home.add')}</h2>
  <div class="card"><form class="inline" method="post" action="/sandbox/scenarios">
    <label>${t('sandbox.home.operation')}<select name="operation">${[...CALL_OPERATIONS, 'notify', ...MONEY_OPERATIONS].map((op) => html`<option>${op}</option>`)}</select></label>
    <label>${t('sandbox.home.what')}<select name="kind">${kinds.map(([value, key]) => html`<option value="${value}">${t(key)}</option>`)}</select></label>
    <label>${t('sandbox.home.code')}<input name="code" placeholder="A213" size="6"></label>
    <label>${t('sandbox.home.copies')}<input name="copies" type="number" min="2" max="20" value="3" style="width:5em"></label>
    <label>${t('sandbox.home.amount')}<input name="amount" type="number" min="1" placeholder="${t('sandbox.home.forPay')}" style="width:7em"></label>
    <label>${t('sandbox.home.remainder')}<input name="remainAmount" type="number" min="0" placeholder="${t('sandbox.home.forCancel')}" style="width:7em"></label>
    <label>${t('sandbox.home.times')}<input name="times" type="number" min="1" max="100" value="1" style="width:5em"></label>
    <button type="submit" class="primary">${t('sandbox.home.addButton')}</button>
  </form>
  <p class="muted">${rich(t, 'sandbox.home.moneyScenarios')}</p>
  <p class="muted">${rich(t, 'sandbox.home.oneCall')}</p></div>
  <h2>${t('sandbox.home.portal')}</h2>
  <div class="card"><form class="inline" method="get" action="/sandbox/portal/transactions.xlsx">
    <label>${t('sandbox.home.mall')}<input name="mallId" required value="${malls[0] ?? ''}" size="10"></label>
    <label>${t('sandbox.home.from')}<input name="from" type="date"></label>
    <label>${t('sandbox.home.to')}<input name="to" type="date"></label>
    <button type="submit" formaction="/sandbox/portal/transactions.xlsx">${t('sandbox.home.transactions')} <code>.xlsx</code></button>
    <button type="submit" formaction="/sandbox/portal/transactions.csv">${t('sandbox.home.transactions')} <code>.csv</code></button>
    <button type="submit" formaction="/sandbox/portal/settlement.xlsx">${t('sandbox.home.settlement')} <code>.xlsx</code></button>
    <button type="submit" formaction="/sandbox/portal/settlement.csv">${t('sandbox.home.settlement')} <code>.csv</code></button>
  </form>
  <p class="muted">${rich(t, 'sandbox.home.portalText')}</p></div>`;
}
