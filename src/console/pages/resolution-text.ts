import { LEDGER_RESOLVER, NO_LONGER_HOLDS } from '../../ledger/fold/discrepancy-lifecycle';
import type { Discrepancy } from '../../ledger/fold/order-record';
import { html, isolated, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';

/**
 * Who resolved a discrepancy and their note. The ledger's own resolution (the condition stopped
 * holding) is the service's words, so it is said in the page's language; a person's name and
 * note are shown as they typed them.
 */
export function resolutionText(t: Translator, d: Pick<Discrepancy, 'resolvedBy' | 'note'>): { by: SafeHtml; note: SafeHtml | null } {
  if (d.resolvedBy === LEDGER_RESOLVER) {
    const note = d.note === NO_LONGER_HOLDS ? t('discrepancies.noLongerHolds') : d.note;
    return { by: html`<span data-resolver="${LEDGER_RESOLVER}">${t('discrepancies.byLedger')}</span>`, note: note ? html`${isolated(note)}` : null };
  }
  return { by: isolated(d.resolvedBy ?? ''), note: d.note ? isolated(d.note) : null };
}
