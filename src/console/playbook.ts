import type { DiscrepancyKind } from '../ledger/fold/order-record';

/** One kind's playbook in one language (the texts: discrepancy-playbooks-<language>.ts). */
export interface Playbook {
  /** A human name for the kind. */
  name: string;
  /** One plain line: what happened, in the words of the people who settle the money. */
  line: string;
  /** What it means, a few sentences. */
  means: string;
  /**
   * What an operations person does in the operator console, step by step: the order's page first
   * (the playbook links back to it), the other pages, then a note and Resolve.
   */
  console: string[];
  /** What to do in the gateway's merchant portal, where a payment is looked up by its pgCno. */
  portal: string[];
  /** For engineers only: the internal API, the CLI and the settings, shown apart from the steps above. */
  engineers: string[];
}

/** The kinds a playbook is written for: every kind the ledger opens (its DISCREPANCY_KINDS). */
export type PlaybookKind = DiscrepancyKind;
