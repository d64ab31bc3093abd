import type { DeliveryReadiness } from '../admin/publisher-readiness';
import type { Config } from '../config/env';
import type { Logger } from '../observability/logger';
import type { CommandStore } from '../store/command-store';
import type { LedgerStore } from '../store/ledger-store';
import type { OperatorQueries, Store } from '../store/store';
import type { Sessions } from './sessions';

export type ConsoleStore = Store & OperatorQueries;

export interface ConsoleDeps {
  store: ConsoleStore;
  /** The running configuration: reprocessing judges a rejection by it, the overview shows the policy. */
  config: Pick<Config, 'GATEWAY_ENV' | 'EXTRA_ALLOWED_IPS' | 'TRUST_PROXY' | 'MALL_IDS' | 'RETENTION_DAYS' | 'ADMIN_PUBLIC_URL' | 'ADMIN_AUTH_HEADER'>;
  logger: Logger;
  /** The bootstrap operator `admin`'s token (ADMIN_TOKEN, or the one generated at start). */
  adminToken: string;
  /** Sessions in the database (createSessions over the same store). */
  sessions: Sessions;
  now: () => Date;
  /** The internal API's commands (SPEC 5); absent where that API is not assembled (some tests). */
  commands?: Pick<CommandStore, 'listCommands' | 'getCommand' | 'listAttempts' | 'countByState'> | null;
  /**
   * The payment ledger (SPEC 7): the Orders and Discrepancies pages read it, and their Resolve
   * button goes through the same verb as the internal API and the CLI. Absent in some tests.
   */
  ledger?: (Pick<LedgerStore, 'getOrder' | 'findOrders' | 'listOrders' | 'listDiscrepancies' | 'openDiscrepancyCounts' | 'resolveDiscrepancy'> & Partial<Pick<LedgerStore, 'lag'>>) | null;
  /** The publisher's state and last error and the relay's store error, as /readyz reports them: why the backlog grows. */
  deliveryReadiness?: () => DeliveryReadiness;
}
