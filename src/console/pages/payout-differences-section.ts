import type { PayoutDifference } from '../../reconciliation/matching/payout-differences';
import { html, isolated, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';
import { money } from './money';

/**
 * The payouts of the day whose statement rows do not add up: the payout as its rows sum it against
 * their gross less fees and VAT, each row that is off (its line in the file, its pgCno, by how
 * much), and the imports that state the payout differently. None: nothing is shown.
 */
export function payoutDifferencesSection(t: Translator, differences: readonly PayoutDifference[], currency: string): SafeHtml | '' {
  if (differences.length === 0) return '';
  return html`<section class="card payout-differences">
<h2>${t('summary.payoutDiff.title')}</h2>
${differences.map((d) => html`<div class="payout-difference" data-mall="${d.mallId}">
<p><span class="mono">${d.mallId}</span>: ${t('summary.payoutDiff.sums', { payout: t.money(d.payout, currency), computed: t.money(d.computed, currency) })} <strong>${money(t, d.difference, currency)}</strong></p>
${d.rows.length === 0 ? '' : html`<div class="table-wrap"><table><thead><tr><th>${t('summary.payoutDiff.line')}</th><th>pgCno</th><th class="num">${t('summary.payoutDiff.gross')}</th><th class="num">${t('summary.payoutDiff.fee')}</th><th class="num">${t('summary.payoutDiff.feeVat')}</th><th class="num">${t('summary.payoutDiff.payout')}</th><th class="num">${t('summary.payoutDiff.difference')}</th></tr></thead>
<tbody>${d.rows.map((r) => html`<tr><td class="num">${t.number(r.line)}</td><td class="mono">${isolated(r.cancelPgCno ?? r.pgCno)}</td><td class="num">${money(t, r.gross, currency)}</td><td class="num">${money(t, r.fee, currency)}</td><td class="num">${money(t, r.feeVat, currency)}</td><td class="num">${money(t, r.payout, currency)}</td><td class="num">${money(t, r.difference, currency)}</td></tr>`)}</tbody></table></div>`}
${d.statedByImport.length === 0 ? '' : html`<p class="muted">${t('summary.payoutDiff.imports')} ${d.statedByImport.map((i, n) => html`${n > 0 ? ', ' : ''}<span class="mono">${isolated(i.importId)}</span> ${money(t, i.payout, currency)}`)}</p>`}
</div>`)}
</section>`;
}
