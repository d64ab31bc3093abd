import type { Playbook, PlaybookKind } from './playbook';
import { PLAYBOOKS_EN } from './discrepancy-playbooks-en';
import { PLAYBOOKS_KO } from './discrepancy-playbooks-ko';

export type { Playbook, PlaybookKind } from './playbook';

export const PLAYBOOK_KINDS: readonly PlaybookKind[] = [
  'amount_mismatch', 'duplicate_payment', 'over_cancel', 'remaining_mismatch', 'refund_transfer_failed',
  'unexpected_payment', 'payment_after_expiry', 'conflicting_notification', 'refused_notification', 'unknown_refund_amount',
  'gateway_amount_differs', 'gateway_status_differs', 'notification_missing', 'not_in_gateway_list',
  'payout_does_not_add_up', 'settlement_amount_differs',
];

export type PlaybookLanguage = 'en' | 'ko';

/**
 * What to do when a discrepancy opens, per kind and language: the console's Discrepancies page,
 * its order page and its playbooks page (`/console/playbooks#<kind>`) are all built from here, so
 * the one-line explanation beside a kind and its playbook never disagree. Written for the people
 * who settle the money: the console and the gateway's merchant portal; what needs an engineer
 * (the internal API, the CLI) is kept apart. The texts are in discrepancy-playbooks-<language>.ts.
 */
export const PLAYBOOKS: Record<PlaybookLanguage, Record<PlaybookKind, Playbook>> = { en: PLAYBOOKS_EN, ko: PLAYBOOKS_KO };

/** A kind's playbook; a kind this catalogue does not know yet still gets its code as a name. */
export function playbookOf(kind: string, language: PlaybookLanguage): Playbook | null {
  return (PLAYBOOKS[language] as Record<string, Playbook | undefined>)[kind] ?? null;
}
