import type { DeliveryReadiness } from '../relay/publisher-readiness';
import type { CommandDeps } from '../commands/command-deps';
import type { Config } from '../config/env';
import type { Logger } from '../observability/logger';
import type { CommandStore } from '../store/command-store';
import type { LedgerStore } from '../ledger/projector/ledger-store';
import type { OperatorQueries, Store } from '../store/store';
import { createRefusalCount, type RefusalCount, type RefusalReason } from './refusal-count';
import { SIGN_IN_WINDOW_MS } from './sign-in-throttle';
import type { Sessions } from './sessions';
import type { ReconciliationStore } from '../reconciliation/import/reconciliation-store';
import type { ImportGatewayFile } from './import-gateway-file';

export type ConsoleStore = Store & OperatorQueries;

export interface ConsoleDeps {
  store: ConsoleStore;
  /** The running configuration: reprocessing judges a rejection by it, the overview shows the policy. */
  config: Pick<Config, 'GATEWAY_ENV' | 'EXTRA_ALLOWED_IPS' | 'TRUST_PROXY' | 'MALL_IDS' | 'RETENTION_DAYS' | 'ADMIN_PUBLIC_URL' | 'ADMIN_AUTH_HEADER' | 'ADMIN_AUTH_PROXY' | 'LEDGER_DEFAULT_CURRENCY'> & Partial<Pick<Config, 'RECONCILE_MAX_FILE_BYTES'>>;
  logger: Logger;
  /** The bootstrap operator `admin`'s token (ADMIN_TOKEN, or the one generated at start). */
  adminToken: string;
  /** Sessions in the database (createSessions over the same store). */
  sessions: Sessions;
  now: () => Date;
  /**
   * Refused sign-ins per client and window, so each client writes one audit row a window (see
   * refusal-count.ts). One per process: withSignInRefusals makes it when the caller has not.
   */
  signInRefusals?: RefusalCount;
  /** The internal API's commands; absent where that API is not assembled (some tests). */
  commands?: Pick<CommandStore, 'listCommands' | 'getCommand' | 'listAttempts' | 'countByState' | 'openCancels'> | null;
  /**
   * The payment ledger: the Orders and Discrepancies pages read it, and their Resolve
   * button goes through the same verb as the internal API and the CLI. Absent in some tests.
   */
  ledger?: (Pick<LedgerStore, 'getOrder' | 'findOrders' | 'searchPayments' | 'listOrders' | 'orderStatusCounts' | 'listDiscrepancies' | 'openDiscrepancyCounts' | 'resolveDiscrepancy'> & Partial<Pick<LedgerStore, 'lag' | 'dailySummary' | 'dayOrders' | 'gatewayListings' | 'dayCloses' | 'closeDay' | 'reopenDay' | 'payoutDifferences' | 'closedDayOrders'>>) | null;
  /**
   * The imports of the gateway's lists and each day's match with the ledger: the Reconcile page. Absent in some tests.
   * Also the console's uploads, staged between preview and import, and the column mappings saved per mall.
   */
  reconciliation?: Pick<ReconciliationStore, 'reconciliationDay' | 'stageUpload' | 'findUpload' | 'dropUpload' | 'saveMapping' | 'mappingsOf'> | null;
  /**
   * The internal API's command machinery (gateway client, keys, resends, net-cancel): an order
   * page's Cancel goes through it as the API's cancel does. Absent: no Cancel button.
   */
  gatewayCommands?: CommandDeps | null;
  /** How long a download may stall before it is given up (off-loop-export.ts's STALLED_DOWNLOAD_MS); tests shorten it. */
  exportStallMs?: number;
  /** The publisher's state and last error and the relay's store error, as /readyz reports them: why the backlog grows. */
  deliveryReadiness?: () => DeliveryReadiness;
  /** Imports a confirmed upload and matches it with the ledger (importGatewayFileWith). Absent: the preview offers no Import. */
  importGatewayFile?: ImportGatewayFile | null;
}

/**
 * `deps` with its one refusal count: every console route of the process must share it, or each
 * would audit anew. `onRefusal`: each refusal as it happens (the listener's metric).
 */
export function withSignInRefusals(deps: ConsoleDeps, onRefusal?: (reason: RefusalReason) => void): ConsoleDeps & { signInRefusals: RefusalCount } {
  return { ...deps, signInRefusals: deps.signInRefusals ?? createRefusalCount({ now: () => deps.now().getTime(), windowMs: SIGN_IN_WINDOW_MS, onRefusal }) };
}
