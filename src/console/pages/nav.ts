import type { MessageKey } from '../i18n/catalogues';
import type { OperatorRole } from '../../store/store';

/** One entry of the console's navigation; a new page (the ledger's, say) adds one line here. */
export interface NavEntry {
  section: string;
  /** The catalogue's key of its label. */
  label: MessageKey;
  href: string;
  /** The least role that may open it: the link is not shown to anyone below (the route refuses them too). */
  needs: OperatorRole;
}

export const NAV: readonly NavEntry[] = [
  { section: 'overview', label: 'nav.overview', href: '/console', needs: 'viewer' },
  { section: 'events', label: 'nav.events', href: '/console/events', needs: 'viewer' },
  { section: 'rejections', label: 'nav.rejections', href: '/console/rejections', needs: 'viewer' },
  { section: 'conflicts', label: 'nav.conflicts', href: '/console/conflicts', needs: 'viewer' },
  { section: 'orders', label: 'nav.orders', href: '/console/orders', needs: 'viewer' },
  { section: 'summary', label: 'nav.summary', href: '/console/summary', needs: 'viewer' },
  { section: 'reconcile', label: 'nav.reconcile', href: '/console/reconcile', needs: 'viewer' },
  { section: 'discrepancies', label: 'nav.discrepancies', href: '/console/discrepancies', needs: 'viewer' },
  { section: 'commands', label: 'nav.commands', href: '/console/commands', needs: 'viewer' },
  { section: 'audit', label: 'nav.audit', href: '/console/audit', needs: 'viewer' },
  { section: 'operators', label: 'nav.operators', href: '/console/operators', needs: 'admin' },
];

export type Section = (typeof NAV)[number]['section'];
