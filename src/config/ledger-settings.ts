/** The payment ledger's settings (LEDGER_*), parsed by the service's config; the ledger only reads them. */
export interface LedgerSettings {
  /** LEDGER_REQUIRE_EXPECTATION: a payment for an order nobody expected is a discrepancy. */
  requireExpectation: boolean;
  /** LEDGER_GRACE_SECONDS: the gateway retries a missing event 10 times, 3 minutes apart (2100 s). */
  graceSeconds: number;
}

export const DEFAULT_LEDGER_SETTINGS: LedgerSettings = { requireExpectation: false, graceSeconds: 2100 };
