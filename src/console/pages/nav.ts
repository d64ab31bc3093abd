import type { OperatorRole } from '../../store/store';

/** One entry of the console's navigation; a new page (the ledger's, say) adds one line here. */
export interface NavEntry {
  section: string;
  label: string;
  href: string;
  /** The least role that may open it: the link is not shown to anyone below (the route refuses them too). */
  needs: OperatorRole;
}

export const NAV: readonly NavEntry[] = [
  { section: 'overview', label: 'Overview', href: '/console', needs: 'viewer' },
  { section: 'events', label: 'Events', href: '/console/events', needs: 'viewer' },
  { section: 'rejections', label: 'Rejections', href: '/console/rejections', needs: 'viewer' },
  { section: 'conflicts', label: 'Conflicts', href: '/console/conflicts', needs: 'viewer' },
  { section: 'orders', label: 'Orders', href: '/console/orders', needs: 'viewer' },
  { section: 'discrepancies', label: 'Discrepancies', href: '/console/discrepancies', needs: 'viewer' },
  { section: 'commands', label: 'Commands', href: '/console/commands', needs: 'viewer' },
  { section: 'audit', label: 'Audit', href: '/console/audit', needs: 'viewer' },
  { section: 'operators', label: 'Operators', href: '/console/operators', needs: 'admin' },
];

export type Section = (typeof NAV)[number]['section'];
