import express, { Router } from 'express';
import { html, page } from './html';
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
  router.get(['/', '/sandbox'], (_req, res) => res.type('html').send(page('Sandbox', body(ctx))));
  router.post('/sandbox/scenarios', (req, res) => {
    const parsed = scenarioRequest.safeParse(req.body);
    const wantsJson = !req.is('application/x-www-form-urlencoded');
    if (!parsed.success) {
      const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      if (wantsJson) return void res.status(400).json({ error: message });
      return void res.status(400).type('html').send(page('Scenario refused', html`<div class="card narrow"><h1>Scenario refused</h1><p>${message}</p><p><a href="/sandbox">Back</a></p></div>`));
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

function body(ctx: SandboxContext) {
  const trades = [...ctx.ledger.trades.values()].reverse();
  const pending = ctx.scenarios.pending();
  return html`<h1>Trades &amp; scenarios</h1>
  <h2>Trades</h2>
  ${trades.length === 0 ? html`<div class="card muted">No trade yet: POST /api/trades/wallet-a creates one.</div>` : html`
  <table><thead><tr><th>order</th><th>goods</th><th>amount</th><th>state</th><th>remaining</th><th>page</th></tr></thead><tbody>
  ${trades.map((t) => html`<tr><td class="mono">${t.shopOrderNo}</td><td>${t.goodsName}</td><td>${formatAmount(t.amount, t.currency)}</td>
    <td><span class="tag ${t.state === 'paid' ? 'ok' : t.state === 'declined' ? 'bad' : 'wait'}">${t.state}</span></td>
    <td>${formatAmount(t.remaining, t.currency)}</td><td><a href="${`/${t.tradeType === 'native' ? 'code' : 'pay'}/${t.token}`}">open</a></td></tr>`)}
  </tbody></table>`}
  <h2>Scenarios waiting</h2>
  ${pending.length === 0 ? html`<div class="card muted">None: every call is answered normally and every notification sent once.</div>` : html`
  <table><thead><tr><th>operation</th><th>what happens</th><th>times left</th></tr></thead><tbody>
  ${pending.map((p) => html`<tr><td>${p.operation}</td><td>${describeScenario(p.scenario)}</td><td>${p.remaining}</td></tr>`)}
  </tbody></table>
  <form method="post" action="/sandbox/scenarios/clear" style="margin-top:10px"><button type="submit">Clear all</button></form>`}
  <h2>Add a scenario</h2>
  <div class="card"><form class="inline" method="post" action="/sandbox/scenarios">
    <label>Operation<select name="operation">${[...CALL_OPERATIONS, 'notify', ...MONEY_OPERATIONS].map((op) => html`<option>${op}</option>`)}</select></label>
    <label>What<select name="kind">
      <option value="timeout">time out (no answer)</option><option value="reset">reset the connection</option>
      <option value="code">answer a code</option><option value="reply-lost">notify: resend after the ack</option>
      <option value="duplicates">notify: concurrent duplicates</option>
      <option value="other-amount">pay: approve another amount</option><option value="pay-twice">pay: approve twice</option>
      <option value="wrong-remainder">cancel: report a wrong remainder</option><option value="refund-fails">cancel: the refund's payout fails (51)</option></select></label>
    <label>Code<input name="code" placeholder="A213" size="6"></label>
    <label>Copies<input name="copies" type="number" min="2" max="20" value="3" style="width:5em"></label>
    <label>Amount<input name="amount" type="number" min="1" placeholder="pay" style="width:7em"></label>
    <label>Remainder<input name="remainAmount" type="number" min="0" placeholder="cancel" style="width:7em"></label>
    <label>Times<input name="times" type="number" min="1" max="100" value="1" style="width:5em"></label>
    <button type="submit" class="primary">Add</button>
  </form>
  <p class="muted">The <code>pay</code> and <code>cancel</code> scenarios get the money wrong on purpose, so the receiver's payment ledger raises each of its alarms: rehearse them before going live.</p>
  <p class="muted">For one call only, send the header <code>X-Sandbox-Scenario: timeout</code>, <code>reset</code> or <code>code=A213</code>.</p></div>`;
}
