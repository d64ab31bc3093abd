import type { SummaryDay } from '../../ledger/summary/summary-days';
import { html, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';
import { money } from './money';

/** An amount with its sign always shown: an adjustment moves money either way. */
function signed(t: Translator, amount: number, currency: string): SafeHtml {
  return amount > 0 ? html`<span class="money">+${t.money(amount, currency)}</span>` : money(t, amount, currency);
}

/**
 * The rows a day's figures gain from closes: on a closed day, what moved it later and on which day
 * (in none of its figures); on the day money of a closed day arrived, each adjustment as its own
 * line naming the closed day, and the day's net with them.
 */
export function adjustmentRows(t: Translator, d: SummaryDay): SafeHtml {
  const later = (d.adjustedLater ?? []).map((a) => html`<tr class="adjusted-later" data-on="${a.on}"><th>${t('summary.row.adjustedLater', { on: a.on })}</th><td></td><td class="num">${signed(t, a.net, d.currency)}</td></tr>`);
  const lines = (d.adjustments ?? []).map((a) => html`<tr class="adjustment" data-adjusts="${a.adjusts}"><th>${t('summary.row.adjustment', { day: a.adjusts })}</th><td class="num">${t('summary.count', { count: a.payments.count + a.cancels.count + a.deposits.count + a.depositCancels.count })}</td><td class="num">${signed(t, a.net, d.currency)}</td></tr>`);
  const total = d.netWithAdjustments === undefined ? '' : html`<tr class="net net-with-adjustments"><th>${t('summary.row.netWithAdjustments')}</th><td></td><td class="num"><strong>${money(t, d.netWithAdjustments, d.currency)}</strong></td></tr>`;
  return html`${later}${lines}${total}`;
}

/**
 * The settlement statement's rows: the fees and VAT charged on this day's transactions and what
 * the gateway expects to pay out for them, and what it pays out on this day, from which days.
 */
export function settlementRows(t: Translator, d: SummaryDay): SafeHtml {
  const s = d.settlement;
  const p = d.payouts;
  const row = (label: string, amount: number, className: string) => html`<tr class="${className}"><th>${label}</th><td></td><td class="num">${money(t, amount, d.currency)}</td></tr>`;
  return html`${s ? html`${row(t('summary.row.gross'), s.gross, 'settlement-gross')}${row(t('summary.row.fees'), s.fee, 'fees sub')}${row(t('summary.row.feeVat'), s.feeVat, 'fee-vat sub')}${row(t('summary.row.feesTotal'), s.fee + s.feeVat, 'fees-total')}${row(t('summary.row.expectedPayout'), s.payout, 'expected-payout')}` : ''}
${p ? html`<tr class="payouts"><th>${t('summary.row.payouts')}</th><td class="num">${t('summary.count', { count: p.count })}</td><td class="num"><strong>${money(t, p.amount, d.currency)}</strong></td></tr>
${p.fromDays.map((f) => html`<tr class="payout-from sub" data-day="${f.day ?? ''}"><th>${f.day === null ? t('summary.row.payoutFromUnknown') : t('summary.row.payoutFrom', { day: f.day })}</th><td class="num">${t('summary.count', { count: f.count })}</td><td class="num">${money(t, f.amount, d.currency)}</td></tr>`)}` : ''}`;
}
